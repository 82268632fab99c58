import Foundation
import Testing

/// HAR 1.2's required fields and their types (http://www.softwareishard.com/blog/har-12-spec/),
/// checked on the JSON a recorder wrote rather than on our own types.
enum HARConformance {
    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ json: [String: Any]) throws {
        let log = try object(json["log"], "log")
        try string(log["version"], "log.version")
        #expect(log["version"] as? String == "1.2")
        let creator = try object(log["creator"], "log.creator")
        try string(creator["name"], "creator.name")
        try string(creator["version"], "creator.version")
        let entries = try array(log["entries"], "log.entries")
        for (index, raw) in entries.enumerated() {
            let entry = try object(raw, "entries[\(index)]")
            let started = try string(entry["startedDateTime"], "startedDateTime")
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard formatter.date(from: started) != nil else { throw Violation(description: "startedDateTime \(started) is not ISO 8601") }
            try number(entry["time"], "time", atLeast: 0)
            _ = try object(entry["cache"], "cache")
            let request = try object(entry["request"], "request")
            for key in ["method", "url", "httpVersion"] { try string(request[key], "request.\(key)") }
            for key in ["cookies", "headers", "queryString"] { try pairs(request[key], "request.\(key)") }
            for key in ["headersSize", "bodySize"] { try number(request[key], "request.\(key)", atLeast: -1) }
            if let post = request["postData"] { try string(try object(post, "postData")["mimeType"], "postData.mimeType") }
            let response = try object(entry["response"], "response")
            try number(response["status"], "response.status", atLeast: 0)
            for key in ["statusText", "httpVersion", "redirectURL"] { try string(response[key], "response.\(key)") }
            for key in ["cookies", "headers"] { try pairs(response[key], "response.\(key)") }
            for key in ["headersSize", "bodySize"] { try number(response[key], "response.\(key)", atLeast: -1) }
            let content = try object(response["content"], "response.content")
            try number(content["size"], "content.size", atLeast: 0)
            try string(content["mimeType"], "content.mimeType")
            let timings = try object(entry["timings"], "timings")
            for key in ["send", "wait", "receive"] { try number(timings[key], "timings.\(key)", atLeast: 0) }
            for key in ["blocked", "dns", "connect", "ssl"] where timings[key] != nil { try number(timings[key], "timings.\(key)", atLeast: -1) }
        }
    }

    private static func object(_ value: Any?, _ path: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw Violation(description: "\(path) is not an object") }
        return object
    }

    private static func array(_ value: Any?, _ path: String) throws -> [Any] {
        guard let array = value as? [Any] else { throw Violation(description: "\(path) is not an array") }
        return array
    }

    @discardableResult
    private static func string(_ value: Any?, _ path: String) throws -> String {
        guard let string = value as? String else { throw Violation(description: "\(path) is not a string") }
        return string
    }

    private static func number(_ value: Any?, _ path: String, atLeast minimum: Double) throws {
        guard let number = (value as? NSNumber)?.doubleValue, number >= minimum else { throw Violation(description: "\(path) is not a number ≥ \(minimum)") }
    }

    /// An array of objects with `name` and `value` strings.
    private static func pairs(_ value: Any?, _ path: String) throws {
        for (index, item) in try array(value, path).enumerated() {
            let pair = try object(item, "\(path)[\(index)]")
            try string(pair["name"], "\(path)[\(index)].name")
            try string(pair["value"], "\(path)[\(index)].value")
        }
    }
}
