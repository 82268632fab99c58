import Foundation

/// `/openapi.yaml`: an OpenAPI 3.0 document describing some of the Sandbox's routes, its server
/// the address the request came to, so that a client can turn it into a service profile
/// (`jewz service http://127.0.0.1:PORT/openapi.yaml --list`).
public enum SandboxOpenAPI {
    private static let hostBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:-[]".utf8)

    static func respond(to request: SandboxRequest) -> SandboxResponse {
        let host = request.header("Host") ?? ""
        // The Host goes into the document: a name, an address or [v6] with a port, nothing else.
        guard !host.isEmpty, host.utf8.allSatisfy(hostBytes.contains) else {
            return .text("the request needs a Host of letters, digits, '.', ':', '-' and brackets", status: 400)
        }
        return SandboxResponse(status: 200, headers: [("Content-Type", "application/yaml")], body: Data(document(server: "http://\(host)").utf8))
    }

    /// The document, its one server `server` (`http://127.0.0.1:8080`).
    public static func document(server: String) -> String {
        """
        openapi: 3.0.3
        info:
          title: Jewzruxin Sandbox
          version: "1"
          description: The playground server's routes, as a service profile sees them.
        servers:
          - url: \(server)
            x-environment: local
        paths:
          /json:
            get:
              operationId: sample
              summary: A small JSON document.
          /items/{count}:
            get:
              operationId: items
              parameters:
                - {name: count, in: path, required: true, schema: {type: integer}}
          /inspect:
            get:
              operationId: inspect
              summary: The request as the server saw it, as JSON.
              parameters:
                - {name: q, in: query, schema: {type: string}}
                - {name: tags, in: query, schema: {type: array, items: {type: string}}}
                - {name: page-size, in: query, schema: {type: integer}}
          /cached/{key}:
            get:
              operationId: entry
              summary: A cacheable entry; type=json answers {"key", "hit"}.
              parameters:
                - {name: key, in: path, required: true, schema: {type: string}}
                - {name: type, in: query, schema: {type: string, enum: [json]}}
                - {name: delay, in: query, schema: {type: integer}}
          /status/{code}:
            get:
              operationId: status
              parameters:
                - {name: code, in: path, required: true, schema: {type: integer}}
          /dumpupload/:
            post:
              operationId: upload
              summary: Echoes the body with its Content-Type.
              requestBody:
                content:
                  application/octet-stream: {schema: {type: string, format: binary}}
        """
    }
}
