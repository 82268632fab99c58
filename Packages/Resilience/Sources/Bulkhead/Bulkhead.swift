import Foundation
import JewzHTTPCore

/// At most so many calls in flight to one origin, as a ship's bulkhead keeps a leak in one
/// compartment: a slow dependency holds that many of the program's connections and tasks, not
/// all of them. A call past the limit waits its turn, first come first served, while fewer than
/// `maximumWaitingCalls` wait; past that it fails at once
/// (``ResilienceError/Code-swift.struct/bulkheadFull``).
///
/// A network middleware: a call holds its place for its exchange, to the end of a body that
/// streams; each redirect hop or retry takes a place at its own origin.
///
/// ```swift
/// let bulkhead = Bulkhead(maximumConcurrentCalls: 8, maximumWaitingCalls: 32)
/// let session = HTTPSession(configuration: .init { $0.networkMiddleware = [bulkhead] })
/// ```
public struct Bulkhead: HTTPMiddleware {
    /// The most calls in flight to one origin.
    public let maximumConcurrentCalls: Int
    /// The most calls waiting for a place at one origin.
    public let maximumWaitingCalls: Int
    private let compartments: Compartments

    /// `bulkhead`, as the stage events and `jewz -v` call it.
    public var name: String { "bulkhead" }

    /// A bulkhead of `maximumConcurrentCalls` per origin (at least 1), with room for
    /// `maximumWaitingCalls` more to wait.
    public init(maximumConcurrentCalls: Int, maximumWaitingCalls: Int = 0) {
        self.maximumConcurrentCalls = max(maximumConcurrentCalls, 1)
        self.maximumWaitingCalls = max(maximumWaitingCalls, 0)
        compartments = Compartments(capacity: self.maximumConcurrentCalls, waiting: self.maximumWaitingCalls)
    }

    /// How many calls to `origin` (`https://api.example.com`) are in flight, and how many wait.
    public func calls(to origin: String) -> (inFlight: Int, waiting: Int) {
        compartments.calls(to: URL(string: origin)?.origin ?? origin)
    }

    /// Sends `request` once its origin has a place for it, and frees the place when the
    /// exchange ends; a call that bypasses the bulkhead (``ResilienceOptions/bypassesBulkhead``)
    /// goes at once, without a place.
    ///
    /// - Throws: ``ResilienceError/Code-swift.struct/bulkheadFull`` when no place is free and
    ///   the queue is full; `CancellationError` when the call is cancelled while it waits;
    ///   what the stages after it threw.
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        if next.options.resilience.bypassesBulkhead { return try await next(request) }
        let origin = request.url.origin
        try await compartments.enter(origin)
        var response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            compartments.leave(origin)
            throw error
        }
        let compartments = compartments
        response.whenBodyEnds { _ in compartments.leave(origin) }
        return response
    }
}
