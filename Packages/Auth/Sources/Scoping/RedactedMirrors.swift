import JewzHTTPCore

// What `dump` and the debugger show of the types that hold a secret: their settings, never the
// secret (a password, a key, a token), so that a program that prints one leaks nothing.

extension BasicAuthentication: CustomReflectable {
    /// The schemes it answers; the credentials are left out.
    public var customMirror: Mirror { Mirror(self, children: ["schemes": schemes, "credentials": "<redacted>"], displayStyle: .class) }
}

extension DigestAuthentication: CustomReflectable {
    /// The user; the password is left out.
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"], displayStyle: .class) }
}

extension NTLMAuthentication: CustomReflectable {
    /// The user and domain; the key made from the password is left out.
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "domain": domain, "responseKey": "<redacted>"], displayStyle: .class)
    }
}

extension AuthorizationHeaderProcessor: CustomStringConvertible, CustomReflectable {
    /// The field it sets and where; its value is left out.
    public var description: String { "AuthorizationHeaderProcessor(\(field): <redacted>)" }

    /// The field and origins; the value is left out.
    public var customMirror: Mirror {
        Mirror(self, children: ["field": field, "value": "<redacted>", "origins": origins], displayStyle: .struct)
    }
}

extension OAuth2ClientAuthentication: CustomReflectable {
    /// The method's name, as ``description`` says it; the secret or key is left out.
    public var customMirror: Mirror { Mirror(self, children: ["method": description], displayStyle: .struct) }
}

extension TokenAuthenticator: CustomReflectable {
    /// Its limits and whether it holds a credential; the token is left out.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["credential": credential.map { _ in "<redacted>" } as Any, "maximumRefreshes": maximumRefreshes, "refreshWindow": refreshWindow],
            displayStyle: .class)
    }
}

extension OAuth2Authentication: CustomReflectable {
    /// Its client and the token held, redacted as ``OAuth2Token`` redacts itself.
    public var customMirror: Mirror { Mirror(self, children: ["client": client, "token": token as Any], displayStyle: .class) }
}
