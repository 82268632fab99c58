import ArgumentParser
import Foundation
import Jewzruxin

/// How `jewz` reaches servers and proves who it is: TLS (`--verify`, `--pin`, `--cert`), the
/// HTTP version, an outgoing proxy, a Unix socket, and credentials. Shared by requests and
/// `jewz proxy`, whose own requests go out the same way.
struct ConnectionOptions: ParsableArguments {
    @Option(name: [.customShort("a"), .customShort("u"), .long], help: "Credentials (-u as curl's): USER:PASSWORD (the password is asked for on a terminal when only USER is given), or the token with --auth-type bearer.")
    var auth: String?

    @Flag(help: "Take --auth from ~/.netrc (or the file NETRC names) for the request's host, as curl --netrc does.")
    var netrc = false

    @Option(help: "Take --auth from this .netrc file for the request's host.")
    var netrcFile: String?

    @Flag(help: "Send credentials on a redirect to another host too, as curl's --location-trusted; by default they stay with the host the request was for.")
    var locationTrusted = false

    @Option(help: "basic (the default; sent with the request), digest (answers the server's challenge, RFC 7616), ntlm (NTLMv2 on a connection of its own; USER may be DOMAIN\\USER), auto (answers the challenge with the strongest scheme offered: Digest, then NTLM, then Basic) or bearer.")
    var authType = "basic"

    @Option(help: "Sign with AWS Signature Version 4, as curl's --aws-sigv4: aws:amz[:REGION[:SERVICE]] (aws:amz:eu-west-1:s3); without them, the service and region are the host's first two labels (s3.eu-west-1.amazonaws.com); a REGION of * or a list (us-east-1,us-west-2) signs with Version 4a (ECDSA, multi-region). The key is --auth KEY:SECRET, else AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, else the AWS_PROFILE (or default) profile of ~/.aws/credentials. S3 uploads of a file go in signed chunks.")
    var awsSigv4: String?


    @Option(help: "Check the server's TLS certificate: yes (the default), no (for test servers only), or the path of a CA bundle (PEM) to trust as well.")
    var verify = "yes"

    @Option(help: "Pin a host to its root's key: HOST=sha256/…[,sha256/…] (HOST may be *.example.com or **.example.com); the chain must end at a root with one of them, the system's or --verify's. jewz pins prints pins.")
    var pin: [String] = []

    @Option(help: "A client certificate (PEM) for servers that ask for one (mutual TLS); its key is in the same file unless --cert-key is given.")
    var cert: String?

    @Option(help: "The private key (PEM, unencrypted) of --cert.")
    var certKey: String?

    @Flag(help: "Speak HTTP/1.1 only; otherwise HTTP/2 is used when the server offers it.")
    var http1 = false

    @Option(help: "Send through a proxy: http://[user:password@]host:port (CONNECT), socks5://host:port, or env to take HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment.")
    var proxy: String?

    @Option(help: "Connect to the server on this Unix domain socket (as curl's --unix-socket); the URL's host goes in Host only: jewz --unix-socket /var/run/docker.sock http://docker/v1.43/info")
    var unixSocket: String?

    /// Sets the session's transport and authentication as the options say.
    ///
    /// - Throws: the exit status for a file or URL that cannot be used (after saying why), or
    ///   a `ValidationError`.
    /// - Parameter host: the request's host, where `--aws-sigv4` reads a region and service not given.
    func configure(_ configuration: inout HTTPSession.Configuration, host: String? = nil) throws {
        do {
            try configureTransport(&configuration.transport)
        } catch let error as HTTPError {
            printError(error.description)
            throw JewzExit.usage.code
        }
        try configureAuthentication(&configuration, host: host)
    }

    /// A session that reaches servers as the options say, over `base`, with nothing else of the
    /// command's.
    ///
    /// - Throws: as ``configure(_:)``.
    func makeSession(base: HTTPSession.Configuration = .init()) throws -> HTTPSession {
        var configuration = base
        try configure(&configuration)
        return HTTPSession(configuration: configuration)
    }

    /// `--auth` and `--auth-type`, as httpie reads them, or the `.netrc` entry for `host`;
    /// `--aws-sigv4`, with `--auth` as its key; `--location-trusted`.
    private func configureAuthentication(_ configuration: inout HTTPSession.Configuration, host: String?) throws {
        configuration.sendsCredentialsAcrossRedirects = locationTrusted
        if let awsSigv4 {
            configuration.networkMiddleware.append(try Self.signer(awsSigv4, key: auth, host: host))
            return
        }
        guard let auth = try auth ?? netrcCredentials(forHost: host) else { return }
        let type = authType.lowercased()
        if type == "bearer" {
            configuration.requestProcessors = [BearerTokenProcessor(token: auth)]
            return
        }
        guard ["basic", "digest", "ntlm", "auto"].contains(type) else {
            throw ValidationError("--auth-type takes basic, digest, ntlm, auto or bearer.")
        }
        let (user, password) = try Self.credentials(auth)
        if type == "digest" {
            configuration.authentications = [DigestAuthentication(username: user, password: password)]
        } else if type == "ntlm" {
            configuration.authentications = [NTLMAuthentication(username: user, password: password)]
        } else if type == "auto" {
            configuration.authentications = [BasicAuthentication(username: user, password: password)]
        } else {
            configuration.requestProcessors = [BasicAuthProcessor(username: user, password: password)]
        }
    }

    /// Whether the credentials come from a file rather than the command line (`--netrc`,
    /// `--netrc-file`): then `-v` shows them redacted.
    var readsCredentialsFromFile: Bool { auth == nil && (netrc || netrcFile != nil) }

    /// `USER:PASSWORD` from the `.netrc` file `--netrc` or `--netrc-file` names, for `host`; `nil`
    /// when neither is given or the file has no entry with a login for it.
    ///
    /// - Throws: `ValidationError` when the file cannot be read or others can read it.
    private func netrcCredentials(forHost host: String?) throws -> String? {
        guard auth == nil, let host else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let path: String
        if let netrcFile {
            path = netrcFile
        } else if netrc, let named = environment["NETRC"] ?? environment["HOME"].map({ $0 + "/.netrc" }) {
            path = named
        } else if netrc {
            throw ValidationError("--netrc reads ~/.netrc, and HOME is not set: give --netrc-file FILE.")
        } else {
            return nil
        }
        let option = netrcFile == nil ? "--netrc" : "--netrc-file"
        guard let entry = Netrc(try SecretFile.contents(of: path, option: option)).entry(forHost: host), let login = entry.login else {
            return nil
        }
        return "\(login):\(entry.password ?? "")"
    }

    /// The signer `--aws-sigv4 aws:amz[:REGION[:SERVICE]]` describes, with `KEY:SECRET`, the
    /// environment's credentials or the shared file's profile.
    private static func signer(_ value: String, key: String?, host: String?) throws -> AWSSignatureV4 {
        var parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (2...4).contains(parts.count), parts[0].lowercased() == "aws", parts[1].lowercased() == "amz", !parts.contains(where: \.isEmpty) else {
            throw ValidationError("--aws-sigv4 takes aws:amz[:REGION[:SERVICE]], for example aws:amz:eu-west-1:s3.")
        }
        if parts.count < 4 {
            // curl's rule: the host's first label is the service, its second the region.
            let labels = (host ?? "").split(separator: ".").map(String.init)
            guard labels.count >= 4, labels.last?.allSatisfy(\.isLetter) == true else {
                throw ValidationError("--aws-sigv4 cannot read the region and service from the host \(host ?? "")': give aws:amz:REGION:SERVICE.")
            }
            if parts.count == 2 { parts.append(labels[1]) }
            parts.append(labels[0])
        }
        let credentials: AWSCredentials
        if let key {
            guard let colon = key.firstIndex(of: ":") else {
                throw ValidationError("With --aws-sigv4, --auth takes the access key as KEY:SECRET.")
            }
            credentials = AWSCredentials(accessKeyID: String(key[..<colon]), secretAccessKey: String(key[key.index(after: colon)...]))
        } else if let found = AWSCredentials.environment() ?? AWSCredentials.profile() {
            credentials = found
        } else {
            throw ValidationError("--aws-sigv4 needs a key: --auth KEY:SECRET, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws/credentials.")
        }
        let service = parts[3]
        // A region set (`*`, `us-east-1,us-west-2`) asks for Signature Version 4a.
        if parts[2].contains(",") || parts[2] == "*" {
            return AWSSignatureV4(credentials: credentials, regionSet: parts[2].split(separator: ",").map(String.init), service: service)
        }
        return AWSSignatureV4(
            credentials: credentials, region: parts[2], service: service, payloadSigning: service == "s3" ? .signedChunks() : .automatic)
    }

    /// `USER:PASSWORD`, or `USER` with the password asked for on the terminal.
    private static func credentials(_ auth: String) throws -> (String, String) {
        if let colon = auth.firstIndex(of: ":") {
            return (String(auth[..<colon]), String(auth[auth.index(after: colon)...]))
        }
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("jewz: password for \(auth): ") else {
            throw ValidationError("Give the password too: --auth \(auth):PASSWORD (it is asked for only on a terminal).")
        }
        return (auth, String(cString: typed))
    }

    /// `--verify`, `--pin`, `--cert`/`--cert-key`, `--http1`, `--unix-socket` and `--proxy`.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` for a file or URL that cannot be used.
    private func configureTransport(_ transport: inout AsyncHTTPClientTransport.Configuration) throws {
        switch verify.lowercased() {
        case "yes", "true": break
        case "no", "false": transport.tls.verification = .none
        default: transport.tls.additionalTrustRoots = [try .init(contentsOfFile: verify)]
        }
        if !pin.isEmpty {
            var pins: [String: [String]] = [:]
            for word in pin {
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                    throw HTTPError.invalidConfiguration("--pin takes HOST=sha256/…[,sha256/…], not '\(word)'")
                }
                pins[String(word[..<equals]), default: []] += word[word.index(after: equals)...].split(separator: ",").map(String.init)
            }
            transport.tls.pinning = try .init(pins, anchors: transport.tls.additionalTrustRoots)
        }
        if let cert {
            transport.tls.clientIdentity = try .init(certificateFile: cert, privateKeyFile: certKey ?? cert)
        } else if certKey != nil {
            throw HTTPError.invalidConfiguration("--cert-key goes with --cert, the certificate it belongs to")
        }
        if http1 { transport.httpVersion = .http1Only }
        transport.unixSocketPath = unixSocket
        switch proxy {
        case nil: break
        case "env"?:
            guard let proxies = try AsyncHTTPClientTransport.Configuration.Proxies.environment() else {
                throw HTTPError.invalidConfiguration("--proxy env: none of HTTP_PROXY, HTTPS_PROXY and ALL_PROXY is set")
            }
            transport.proxies = proxies
        case let url?:
            transport.proxies = .all(try .init(url: url))
        }
    }
}
