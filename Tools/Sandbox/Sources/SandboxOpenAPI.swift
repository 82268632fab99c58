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
              responses:
                "200":
                  description: The document.
                  content:
                    application/json: {schema: {$ref: "#/components/schemas/Sample"}}
          /items/{count}:
            get:
              operationId: items
              parameters:
                - {name: count, in: path, required: true, schema: {type: integer}}
              responses:
                "200":
                  description: count items, numbered from 0.
                  content:
                    application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Item"}}}
          /inspect:
            get:
              operationId: inspect
              summary: The request as the server saw it, as JSON.
              parameters:
                - {name: q, in: query, schema: {type: string}}
                - {name: tags, in: query, schema: {type: array, items: {type: string}}}
                - {name: page-size, in: query, schema: {type: integer}}
              responses:
                "200":
                  description: The request line, headers and body.
                  content:
                    application/json: {schema: {$ref: "#/components/schemas/Inspection"}}
          /cached/{key}:
            get:
              operationId: entry
              summary: A cacheable entry; type=json answers {"key", "hit"}.
              parameters:
                - {name: key, in: path, required: true, schema: {type: string}}
                - {name: type, in: query, schema: {type: string, enum: [json]}}
                - {name: delay, in: query, schema: {type: integer}}
              responses:
                "200":
                  description: The entry, and how many times it was asked for.
                  content:
                    application/json: {schema: {$ref: "#/components/schemas/Entry"}}
          /status/{code}:
            get:
              operationId: status
              parameters:
                - {name: code, in: path, required: true, schema: {type: integer}}
              responses:
                default:
                  description: The status asked for.
                  content:
                    text/plain: {schema: {type: string}}
          /dumpupload/:
            post:
              operationId: upload
              summary: Echoes the body with its Content-Type.
              requestBody:
                content:
                  application/octet-stream: {schema: {type: string, format: binary}}
              responses:
                "200":
                  description: The body as it came.
                  content:
                    application/octet-stream: {schema: {type: string, format: binary}}
          /download/{size}:
            get:
              operationId: fetch
              summary: size bytes of a fixed pattern (byte i is i mod 251), streamed.
              parameters:
                - {name: size, in: path, required: true, schema: {type: integer, format: int64}}
              responses:
                "200":
                  description: The bytes.
                  content:
                    application/octet-stream: {schema: {type: string, format: binary}}
          /sink:
            post:
              operationId: sink
              summary: Reads a body of any size and answers with its length and CRC-32.
              requestBody:
                content:
                  application/octet-stream: {schema: {type: string, format: binary}}
              responses:
                "200":
                  description: What arrived.
                  content:
                    application/json: {schema: {$ref: "#/components/schemas/Sunk"}}
        components:
          schemas:
            Sample:
              type: object
              required: [name, version, tags, items]
              properties:
                name: {type: string}
                version: {type: integer}
                tags: {type: array, items: {type: string}}
                items:
                  type: array
                  items:
                    type: object
                    required: [id, title]
                    properties: {id: {type: integer}, title: {type: string}}
            Item:
              type: object
              required: [id, name, price, tags, active]
              properties:
                id: {type: integer}
                name: {type: string}
                price: {type: number}
                tags: {type: array, items: {type: string}}
                active: {type: boolean}
            Inspection:
              type: object
              required: [method, uri, version, headers, body, bodyLength]
              properties:
                method: {type: string}
                uri: {type: string}
                version: {type: string}
                headers: {type: array, items: {type: array, items: {type: string}}}
                body: {type: string}
                bodyLength: {type: integer}
            Entry:
              type: object
              required: [key, hit]
              properties: {key: {type: string}, hit: {type: integer}}
            Sunk:
              type: object
              required: [length, crc32]
              properties:
                length: {type: integer, format: int64}
                crc32: {type: integer, format: int64}
                contentType: {type: string}
        """
    }
}
