import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's steps about bodies the registry reads by Content-Type and Content-Encoding: XML
/// and gzip.
extension TourStep {
    static func processorSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "XML responses become a tree by Content-Type; XPath reads it, namespaces included",
                code: """
                    let response = try await HTTPCycle.get(url("/xml"))
                    let items = try response.xml?.nodes(forXPath: "//j:item", namespaces: ["j": "urn:jewzruxin"])
                    items?.map(\\.text)
                    """
            ) {
                let response = try await HTTPCycle.get(url("/xml"))
                let items = try response.xml?.nodes(forXPath: "//j:item", namespaces: ["j": "urn:jewzruxin"]) ?? []
                return Outcome(items.map { "\"\($0.text)\"" }.joined(separator: ", "), expected: "\"Hello\", \"World & more\"")
            },
            TourStep(
                title: "gzip bodies are decoded as they arrive: the Content-Encoding is read, the text is whole",
                code: """
                    let response = try await HTTPCycle.get(url("/encoded"), parameters: ["coding": "gzip", "content": "Hello ", "repeat": 1000])
                    (response.headers["Content-Encoding"], response.text?.count)
                    """
            ) {
                let response = try await HTTPCycle.get(url("/encoded"), parameters: ["coding": "gzip", "content": "Hello ", "repeat": 1000])
                let encoding = response.headers["Content-Encoding"] ?? "none"
                return Outcome(
                    "Content-Encoding \(encoding), \(response.text?.count ?? 0) characters",
                    expected: "Content-Encoding gzip, 6000 characters")
            },
        ]
    }

    /// Steps about a cycle's life: cancelled and started again, and solicited.
    static func lifecycleSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "Cancel a cycle, change it, start it again: the same cycle runs anew",
                code: """
                    let cycle = try HTTPCycle(url("/echo/"), method: .get, parameters: ["delay": 5])
                    cycle.start { _, error in /* error?.code == .cancelled */ }
                    cycle.cancel(explicitly: false)
                    cycle.request.url = URL(string: url("/hello/"))!
                    try await cycle.start()
                    """
            ) {
                let cycle = try HTTPCycle(url("/echo/"), method: .get, parameters: ["delay": 5])
                let first: HTTPError.Code? = await withCheckedContinuation { continuation in
                    cycle.start { _, error in continuation.resume(returning: error?.code) }
                    cycle.cancel(explicitly: false)
                }
                guard let hello = URL(string: url("/hello/")) else { throw HTTPError.invalidURL("/hello/") }
                cycle.request.url = hello
                let restarted = try await cycle.start()
                return Outcome(
                    "first run \(first.map { "\($0)" } ?? "finished"), then \"\(restarted.text ?? "")\"",
                    expected: "first run cancelled, then \"Hello World\"")
            },
            TourStep(
                title: "A solicited request (a person asked) retries past the policy's count until data arrives",
                code: """
                    let cycle = try HTTPCycle(url("/counter"), method: .get, parameters: ["key": "tour-asked", "fail": 5])
                    cycle.options.solicited = true            // the default policy alone would give up after 3 retries
                    try await cycle.start()
                    """
            ) {
                let cycle = try HTTPCycle(url("/counter"), method: .get, parameters: ["key": "tour-asked", "fail": 5, "retry-after": 0])
                cycle.options.solicited = true
                try await cycle.start()
                return Outcome(
                    "\(cycle.retryCount) retries, \"\(cycle.response?.text ?? "")\"", expected: "5 retries, \"attempt 6 succeeds\"")
            },
        ]
    }
}
