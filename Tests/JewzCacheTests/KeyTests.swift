import Foundation
import JewzCache
import JewzHTTPCore
import JewzTestSupport
import Testing

/// Keys, Vary, and invalidation by unsafe methods (RFC 9111 §4.1, §4.4).
@Suite struct KeyTests {
    @Test func varySelectsTheVariantAndVaryStarIsNotStored() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/vary?cc=max-age=60&vary=X-Lang")
            #expect(try await fetch(url, session: session, headers: ["X-Lang": "en"]).bodyText == "vary #1 X-Lang=en")
            let same = try await fetch(url, session: session, headers: ["X-Lang": "en"])
            #expect(same.source == .cache)
            let other = try await fetch(url, session: session, headers: ["X-Lang": "fr"])
            #expect(other.source == .network)
            #expect(other.bodyText == "vary #2 X-Lang=fr")
            let star = sandbox.url("/cached/star?cc=max-age=60&vary=*")
            try await fetch(star, session: session)
            #expect(try await fetch(star, session: session).source == .network)
        }
    }

    /// Values that differ in white space, case, order of equal preferences or an explicit
    /// `q=1` select the same variant; one whose preference order differs does not.
    @Test(arguments: [false, true])
    func selectingValuesAreComparedNormalised(shared: Bool) async throws {
        var configuration = HTTPCache.Configuration()
        configuration.isShared = shared
        try await withCachedSandbox(HTTPCache(configuration: configuration)) { sandbox, session in
            let url = sandbox.url("/cached/normal?cc=public,max-age=60&vary=Accept-Language,Accept-Encoding")
            let first = try await fetch(url, session: session, headers: ["Accept-Language": "en-US, fr;q=0.5", "Accept-Encoding": "gzip, br"])
            #expect(first.source == .network)
            for (language, encoding) in [
                ("en-us,fr;q=0.5", "br,gzip"), ("  EN-us ;q=1 ,  FR ; q=0.50 ", "BR , GZIP;q=1"),
            ] {
                let same = try await fetch(url, session: session, headers: ["Accept-Language": language, "Accept-Encoding": encoding])
                #expect(same.source == .cache, "\(language) / \(encoding)")
            }
            let reordered = try await fetch(url, session: session, headers: ["Accept-Language": "fr, en-US;q=0.5", "Accept-Encoding": "gzip, br"])
            #expect(reordered.source == .network)
        }
    }

    /// A variant in the language a request wants most answers it, whatever else its
    /// `Accept-Language` lists; a request that prefers another language is not answered with it.
    @Test func aVariantInTheFirstChoiceLanguageAnswers() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/language?cc=max-age=60&vary=Accept-Language&language=de")
            #expect(try await fetch(url, session: session, headers: ["Accept-Language": "de"]).source == .network)
            let satisfied = try await fetch(url, session: session, headers: ["Accept-Language": "de-DE;q=0.8, de, en;q=0.2"])
            #expect(satisfied.source == .cache)
            #expect(satisfied.bodyText.hasPrefix("language #1"), "\(satisfied.bodyText)")
            let narrower = try await fetch(url, session: session, headers: ["Accept-Language": "de-AT, de;q=0.9"])
            #expect(narrower.source == .network, "a response in de is not what wants de-AT first")
            let elsewhere = try await fetch(url, session: session, headers: ["Accept-Language": "en, de;q=0.5"])
            #expect(elsewhere.source == .network)
        }
    }

    @Test func aKeyOfTheRequestsOwnJoinsURLs() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            try await fetch(sandbox.url("/cached/keyed?cc=max-age=60&nonce=1"), session: session, caching: .init(key: "the-list"))
            let second = try await fetch(sandbox.url("/cached/keyed?cc=max-age=60&nonce=2"), session: session, caching: .init(key: "the-list"))
            #expect(second.source == .cache)
            #expect(second.bodyText == "keyed #1")
        }
    }

    @Test func anUnsafeMethodInvalidatesItsURL() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/resource?cc=max-age=60")
            try await fetch(url, session: session)
            #expect(try await fetch(url, session: session).source == .cache)
            let post = try await fetch(url, session: session, method: .post)
            #expect(post.source == .network)
            let after = try await fetch(url, session: session)
            #expect(after.source == .network)
            #expect(after.bodyText == "resource #3")
            // HEAD is stored apart from GET.
            try await fetch(url, session: session, method: .head)
            #expect(try await fetch(url, session: session, method: .head).source == .cache)
        }
    }

    @Test func anUnsafeMethodInvalidatesTheLocationItNamesOnItsOrigin() async throws {
        try await withCachedSandbox(HTTPCache(), followsRedirects: false) { sandbox, session in
            let target = sandbox.url("/cached/moved?cc=max-age=60")
            try await fetch(target, session: session)
            // A POST answered 303 with Location: the target, which a later GET must fetch anew.
            let post = sandbox.url("/redirect-to?status=303&url=" + "/cached/moved%3Fcc%3Dmax-age%3D60")
            #expect(try await fetch(target, session: session).source == .cache)
            #expect(try await fetch(post, session: session, method: .post).statusCode == 303)
            #expect(try await fetch(target, session: session).source == .network)
        }
    }

    /// A 206 is kept as a piece: it answers the range again, and never stands for the whole
    /// body, which is completed from the origin.
    @Test func aPartialResponseIsKeptAsAPieceNeverAsTheWhole() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/download/1000?validator=etag")
            let partial = try await fetch(url, session: session, headers: ["Range": "bytes=0-9"], caching: .init(lifetime: .seconds(600)))
            #expect(partial.statusCode == 206)
            let again = try await fetch(url, session: session, headers: ["Range": "bytes=0-9"], caching: .init(lifetime: .seconds(600)))
            #expect(again.source == .cache)
            #expect(again.data == partial.data)
            let whole = try await fetch(url, session: session, caching: .init(lifetime: .seconds(600)))
            #expect(whole.statusCode == 200)
            #expect(whole.data.count == 1000)
            #expect(whole.data.prefix(10) == partial.data)
            #expect(try await fetch(url, session: session).source == .cache)
        }
    }
}
