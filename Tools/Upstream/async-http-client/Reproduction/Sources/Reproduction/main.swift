// A server answers `HTTP/1.1 099 X` with an empty body; AsyncHTTPClient 1.37.0 traps
// (SIGILL, "How can we receive a response end, if we haven't a received a head") instead of
// failing the request. With status-below-100.patch applied it prints the error and exits.
import AsyncHTTPClient
import Foundation

let server = try Socket.listenOnLoopback()
Thread.detachNewThread {
    while let client = server.accept() {
        _ = client.readRequestHead()
        client.write("HTTP/1.1 099 X\r\nContent-Length: 0\r\n\r\n")
        client.close()
    }
}
do {
    let response = try await HTTPClient.shared.get(url: "http://127.0.0.1:\(server.port)/").get()
    print("answered \(response.status.code)")
} catch {
    print("failed as it should: \(error)")
}
