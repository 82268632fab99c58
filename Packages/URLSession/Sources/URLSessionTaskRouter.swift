#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import JewzHTTPCore
import JewzLocking

/// The session's delegate: hands each task's callbacks to its exchange.
final class URLSessionTaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: URLSessionExchange]>([:])

    func register(_ exchange: URLSessionExchange) {
        exchanges.withLock { $0[exchange.task.taskIdentifier] = exchange }
    }

    func unregister(_ task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = nil }
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let response = response as? HTTPURLResponse {
            exchange(for: dataTask)?.head(response)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.body(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sent(Int(bytesSent))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // The cycle follows redirects, with one policy for every transport: Foundation's
        // would carry Authorization and Cookie to another origin.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Challenges are the cycle's authentications' business. FoundationNetworking has
        // delivered the 401/407 and its body by now, but would wait forever with default
        // handling: stop the task and let the exchange end with what it has.
        exchange(for: task)?.challenged()
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(for: task)?.complete(error)
    }
}
