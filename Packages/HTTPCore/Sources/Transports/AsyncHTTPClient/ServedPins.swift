import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

extension AsyncHTTPClientTransport {
    /// The pins of the certificates `host` presents on `port`, leaf first, read by a TLS handshake of its
    /// own that trusts nothing and sends no request: what to pin, and what a pinned host
    /// served when its chain was refused. The connection is direct, never through a proxy.
    ///
    /// Servers seldom send their root, whose key is what ``Configuration/CertificatePinning``
    /// pins: read it from the root's certificate with ``Configuration/PEMCertificates/pins()``.
    ///
    /// - Throws: ``HTTPError/Code/connectionFailed``, ``HTTPError/Code/timedOut`` or
    ///   ``HTTPError/Code/tlsHandshakeFailed`` when no certificate arrives.
    public static func pins(servedBy host: String, port: Int = 443, timeout: Duration = .seconds(10)) async throws -> [CertificatePin] {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let served = eventLoop.makePromise(of: [NIOSSLCertificate].self)
        let settled = Atomic(false)
        let settle: @Sendable (Result<[NIOSSLCertificate], any Error>) -> Void = { result in
            guard settled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            served.completeWith(result)
        }
        do {
            let context = try NIOSSLContext(configuration: .makeClientConfiguration())
            let serverName = Configuration.TLS.serverName(for: host)
            let channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(TimeAmount(timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = try NIOSSLClientHandler(
                            context: context, serverHostname: serverName,
                            customVerificationCallback: { (chain: [NIOSSLCertificate], verdict: EventLoopPromise<NIOSSLVerificationResult>) in
                                settle(.success(chain))
                                verdict.succeed(NIOSSLVerificationResult.failed)  // all that was wanted: end the handshake
                            })
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port).get()
            channel.closeFuture.whenComplete { _ in
                settle(.failure(HTTPError.tlsHandshakeFailed(reason: "the server closed the connection before its certificate")))
            }
            let deadline = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                settle(.failure(HTTPError.timedOut))
                channel.close(promise: nil)
            }
            defer { deadline.cancel() }
            let chain = try await served.futureResult.get()
            channel.close(promise: nil)
            return try chain.map(CertificatePin.init(certificate:))
        } catch {
            settle(.failure(error))
            throw HTTPError(transportError: error)
        }
    }
}
