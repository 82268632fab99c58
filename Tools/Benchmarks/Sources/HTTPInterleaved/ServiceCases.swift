import Foundation
import Jewzruxin

/// `SERVICE=1`: `HTTPService.request` of a resource against `HTTPCycle.get` of the URL it
/// expands to: what routing by name, template expansion and the profile's settings add to a
/// request. Over a transport that answers at once (the cost alone, in µs: the difference of
/// the two rates) with a template of six variables and with one, then on the wire at c=1 and
/// c=64.
func serviceCases(hello: String) throws -> (cases: [Case], sessions: [HTTPSession]) {
    guard let helloURL = URL(string: hello), let host = helloURL.host, let port = helloURL.port else { throw BenchFailure(hello) }
    let profile = try ServiceProfile(dictionary: [
        "BaseURL": "http://\(host):\(port)",
        "Resources": [
            ["Name": "search", "URITemplate": "/search/repositories{?q,sort,order,page}"],
            ["Name": "issues", "URITemplate": "/repos/{owner}/{repo}/issues{?state,labels,page}"],
            ["Name": "hello", "URITemplate": "/{greeting}/"],
            ["Name": "user", "URITemplate": "/users/{user}"],
        ],
    ])
    let instant = HTTPSession(configuration: .init { $0.customTransport = InstantTransport() })
    let onInstant = HTTPService(profile: profile, session: instant)
    let values: [String: URITemplate.Value] = ["owner": "apple", "repo": "swift-nio", "state": "open", "labels": ["bug", "help wanted"], "page": 2]
    let expanded = try profile.resource(named: "issues").map { profile.baseURL + (try $0.template.expand(values)) } ?? hello
    let userURL = profile.baseURL + "/users/ada"
    let network = HTTPSession()
    let onNetwork = HTTPService(profile: profile, session: network)
    let cases: [Case] = [
        (
            "service vs cycle, instant c=1", 1, 20_000 * blockScale,
            Contender(name: "HTTPService.request, instant") { try await onInstant.request("issues", values: values) },
            Contender(name: "HTTPCycle.get, instant") { try await HTTPCycle.get(expanded, session: instant) }
        ),
        (
            "service vs cycle, one variable, instant c=1", 1, 20_000 * blockScale,
            Contender(name: "HTTPService.request /users/{user}, instant") { try await onInstant.request("user", values: ["user": "ada"]) },
            Contender(name: "HTTPCycle.get /users/ada, instant") { try await HTTPCycle.get(userURL, session: instant) }
        ),
    ]
    + atBothConcurrencies(
        "service vs cycle",
        Contender(name: "HTTPService.request") { try await onNetwork.request("hello", values: ["greeting": "hello"]) },
        Contender(name: "HTTPCycle.get") { try await HTTPCycle.get(hello, session: network) })
    return (cases, [instant, network])
}
