import ArgumentParser
import Foundation

/// A file that holds a secret (a client secret, a `.netrc`): read only when its owner alone
/// can read it, as ssh reads a private key, so that a secret others can read is never used as
/// if it were still one.
enum SecretFile {
    /// The file's text.
    ///
    /// - Throws: `ValidationError`, naming `option`, when the file cannot be read, belongs to
    ///   another user, or its group or others may read or write it.
    static func contents(of path: String, option: String) throws -> String {
        var info = stat()
        guard stat(path, &info) == 0, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("\(option): \(path) cannot be read; check that it exists and is readable.")
        }
        guard info.st_uid == geteuid() else {
            throw ValidationError("\(option): \(path) belongs to another user; keep secrets in a file of your own.")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ValidationError(
                "\(option): \(path) has mode \(String(info.st_mode & 0o777, radix: 8)), so others can read it; chmod 600 \(path) (and change the secret if others may have read it).")
        }
        return text
    }

    /// The file's first line, without its line break.
    ///
    /// - Throws: as ``contents(of:option:)``, and when the first line is empty.
    static func firstLine(of path: String, option: String) throws -> String {
        let line = try contents(of: path, option: option).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let secret = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        guard !secret.isEmpty else { throw ValidationError("\(option): the first line of \(path) is empty; write the secret there.") }
        return secret
    }
}
