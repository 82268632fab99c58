import Foundation
import JewzHTTPCore

// The completion-handler forms, for callers outside async code.
extension ImageCache {
    /// As ``response(for:priority:)``, calling `completion` on the session's completion queue.
    /// ``cancelDownload(for:)`` stops it (the completion then gets `CancellationError`).
    public func image(
        for url: URL, priority: RequestPriority = .normal,
        completion: @escaping @Sendable (Result<ImageResponse, any Error>) -> Void
    ) {
        let queue = session.completionQueue
        Task {
            do {
                let response = try await self.response(for: url, priority: priority)
                queue.async { completion(.success(response)) }
            } catch {
                queue.async { completion(.failure(error)) }
            }
        }
    }
}
