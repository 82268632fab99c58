// Written by regenerate.sh; do not edit.

/// What the code in Generated/ was generated from.
public enum GeneratedFrom {
    /// The SHA-256 of the Sandbox's OpenAPI document (served for 127.0.0.1:8080).
    public static let documentSHA256 = "68dbe668eb7691bd0d52784aea0076c9d28a96105510a4921b1300b88b03b8ee"
}
