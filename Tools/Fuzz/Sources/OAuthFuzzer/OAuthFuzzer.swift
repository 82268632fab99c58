import Foundation
import FuzzDriver
@_spi(Fuzzing) import JewzAuth

/// Feeds arbitrary bytes to the readers of a token endpoint's and a device authorization
/// endpoint's answers. A token read has an access token and an expiry that is a real date; its
/// description never shows a token long enough to find (but in the scopes, shown as granted); a device authorization polls at a
/// bounded interval. A trap anywhere is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: count))
    if let token = AuthParsers.tokenResponse(bytes) {
        guard !token.accessToken.isEmpty, token.expiresAt.map({ $0.timeIntervalSince1970.isFinite }) ?? true else {
            fatalError("a token without an access token or with an impossible expiry: \(token)")
        }
        // The scopes are shown as granted: a token is looked for in the rest.
        var bare = token
        bare.scopes = []
        let shown = bare.description
        if token.accessToken.count >= 24, shown.contains(token.accessToken) { fatalError("the description shows the access token") }
        if let refresh = token.refreshToken, refresh.count >= 24, shown.contains(refresh) { fatalError("the description shows the refresh token") }
    }
    if let device = AuthParsers.deviceAuthorizationResponse(bytes) {
        guard device.interval >= .zero, device.interval <= .seconds(600), device.expiresAt.timeIntervalSince1970.isFinite else {
            fatalError("a device authorization with a wild interval or expiry: \(device)")
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("OAuthFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
