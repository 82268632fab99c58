import JewzAuth
import JewzTestSupport
import Testing

/// `WWW-Authenticate` as RFC 9110 §11 writes it, and as servers get it wrong.
@Suite struct ChallengeParsingTests {
    @Test func severalChallengesInOneFieldAndAcrossFields() {
        let challenges = AuthenticationChallenge.parse([
            #"Digest realm="api", nonce="n1", qop="auth,auth-int", algorithm=SHA-256, Basic realm="api""#,
            "Negotiate abc+/==, Bearer",
        ])
        #expect(challenges.map(\.scheme) == ["digest", "basic", "negotiate", "bearer"])
        #expect(challenges[0]["qop"] == "auth,auth-int")
        #expect(challenges[0]["ALGORITHM"] == "SHA-256")
        #expect(challenges[1].realm == "api")
        #expect(challenges[2].token == "abc+/==")
        #expect(challenges[3].parameters.isEmpty && challenges[3].token == nil)
    }

    @Test func quotedStringsUndoTheirEscapesAndUnknownParametersAreKept() {
        let challenge = AuthenticationChallenge.parse(#"Basic realm="say \"hi\", ok", charset="UTF-8", x-new=1"#)
        #expect(challenge.count == 1)
        #expect(challenge.first?.realm == #"say "hi", ok"#)
        #expect(challenge.first?["charset"] == "UTF-8")
        #expect(challenge.first?["x-new"] == "1")
    }

    @Test func malformedFieldsGiveFewerChallengesNeverACrash() {
        for field in ["", ",,,", "=", "\"", #"Digest realm="unterminated"#, "Basic realm==", "Digest ,, nonce", "\u{0}\u{7F}é ✓"] {
            _ = AuthenticationChallenge.parse(field)
        }
        #expect(AuthenticationChallenge.parse(#"Digest realm="unterminated"#).first?.realm == "unterminated")
        // Whatever the field, each challenge read from it has a scheme that is one of its tokens.
        var generator = SeededGenerator()
        let alphabet = Array(#"Basic Digest realm= ," \ token68== nonce"#)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<60, using: &generator)
            let field = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? " " })
            for challenge in AuthenticationChallenge.parse(field) {
                #expect(!challenge.scheme.isEmpty && field.lowercased().contains(challenge.scheme.lowercased()), "\(field.debugDescription), \(generator)")
                #expect(!challenge.scheme.contains(where: { " ,=\"".contains($0) }), "\(field.debugDescription), \(generator)")
            }
        }
    }
}
