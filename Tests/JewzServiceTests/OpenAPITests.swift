import Foundation
import Jewzruxin
import JewzSandbox
import JewzTestSupport
import Testing

/// A Petstore-style OpenAPI 3.0 document in YAML that uses every parameter style, with the
/// Sandbox as its first server (its port a server variable).
func petstoreYAML(port: Int) -> String {
    """
    openapi: 3.0.3
    info: {title: Petstore, version: 1.0.0}
    servers:
      - url: http://127.0.0.1:{port}
        x-environment: local
        variables:
          port: {default: "\(port)"}
      - url: https://petstore.example/v1
        description: Production server
    paths:
      /inspect:
        get:
          operationId: listPets
          parameters:
            - {name: limit, in: query, schema: {type: integer}}
            - {name: tags, in: query, schema: {type: array, items: {type: string}}}
            - {name: color, in: query, explode: false, schema: {type: array, items: {type: string}}}
            - {name: page-size, in: query, schema: {type: integer}}
            - {name: ids, in: query, style: spaceDelimited, schema: {type: array}}
            - {name: filter, in: query, style: deepObject, schema: {type: object}}
            - {name: X-Request-ID, in: header, schema: {type: string}}
            - {name: session, in: cookie, schema: {type: string}}
      /cached/{petId}:
        parameters:
          - {name: petId, in: path, required: true, schema: {type: string}}
        get:
          operationId: showPetById
          parameters:
            - $ref: '#/components/parameters/Type'
        delete:
          parameters:
            - {name: petId, in: path, required: true, style: simple, explode: true, schema: {type: object}}
      /pets/{label}/{matrix}/{exploded}:
        get:
          operationId: styledPath
          parameters:
            - {name: label, in: path, required: true, style: label, schema: {type: array}}
            - {name: matrix, in: path, required: true, style: matrix, schema: {type: array}}
            - {name: exploded, in: path, required: true, style: matrix, explode: true, schema: {type: object}}
      /dumpupload/:
        post:
          operationId: createPet
          requestBody:
            content:
              text/plain: {schema: {type: string}}
              application/json: {schema: {type: object}}
        put:
          operationId: uploadPhoto
          requestBody:
            content:
              image/png: {schema: {type: string, format: binary}}
    components:
      parameters:
        Type: {name: type, in: query, schema: {type: string}}
    """
}

@Suite struct OpenAPITests {
    @Test func everyParameterStyleBecomesItsTemplate() throws {
        let profile = try ServiceProfile(data: Data(petstoreYAML(port: 8080).utf8))
        let templates = Dictionary(uniqueKeysWithValues: profile.resources.map { ($0.name, $0.template.template) })
        #expect(templates == [
            "listPets": "/inspect{?limit,tags*,color,page%2Dsize}",
            "showPetById": "/cached/{petId}{?type}",
            "DELETE /cached/{petId}": "/cached/{petId*}",
            "styledPath": "/pets/{.label}/{;matrix}/{;exploded*}",
            "createPet": "/dumpupload/",
            "uploadPhoto": "/dumpupload/",
        ])
        #expect(profile.resource(named: "createPet")?.method == .post)
        #expect(profile.resource(named: "createPet")?.requestProcessor == .json)
        #expect(profile.resource(named: "uploadPhoto")?.requestProcessor == .contentType("image/png"))
        #expect(profile.baseURL == "http://127.0.0.1:8080")
        #expect(profile.environments == ["local": "http://127.0.0.1:8080", "production-server": "https://petstore.example/v1"])
    }

    @Test func unsupportedConstructsAreListedNotIgnored() throws {
        let problems = try ServiceProfile.problems(in: Data(petstoreYAML(port: 8080).utf8))
        #expect(problems.allSatisfy { $0.kind == .unsupported && $0.path == "paths./inspect.get" }, "\(problems)")
        let named = problems.map(\.message)
        for parameter in ["\"ids\" in style spaceDelimited", "\"filter\" in style deepObject", "header parameter \"X-Request-ID\"", "cookie parameter \"session\""] {
            #expect(named.contains { $0.contains(parameter) }, "\(parameter) in \(named)")
        }
    }

    @Test func theDocumentWorksEndToEnd() async throws {
        try await withSandbox(registry: .standard()) { sandbox, session in
            let service = HTTPService(profile: try ServiceProfile(data: Data(petstoreYAML(port: sandbox.port).utf8)), session: session)
            let listed = try await service.request(
                "listPets", values: ["limit": 2, "tags": ["cat", "dog"], "color": ["black", "white"], "page-size": 20])
            let uri = (listed.response?.object as? JSONValue)?["uri"].string
            #expect(uri == "/inspect?limit=2&tags=cat&tags=dog&color=black,white&page%2Dsize=20")

            let pet = try await service.request("showPetById", values: ["petId": "rex", "type": "json"])
            #expect((pet.response?.object as? JSONValue)?["key"].string == "rex")

            let created = try await service.request("createPet", object: ["name": "Rex", "tag": "dog"] as JSONValue)
            #expect(created.response?.headers["Content-Type"]?.hasPrefix("application/json") == true)
            #expect((created.response?.object as? JSONValue)?["name"].string == "Rex")

            let styled = try service.cycle(
                forResource: "styledPath", values: ["label": ["a", "b"], "matrix": ["x", "y"], "exploded": ["r": "1", "g": "2"]])
            #expect(styled.request.url.path == "/pets/.a,b/;matrix=x,y/;r=1;g=2")

            try service.use(environment: "production-server")
            #expect(service.baseURL == "https://petstore.example/v1")
        }
    }

    @Test func jsonDocumentsOfVersion3Point1AndWhatKeepsADocumentFromBeingAProfile() throws {
        let document: [String: Any] = [
            "openapi": "3.1.0",
            "servers": [["url": "/api"]],
            "paths": [
                "/items/{id}": ["get": ["operationId": "item", "parameters": [["name": "id", "in": "path", "style": "label", "explode": true]]]],
                "/things": ["get": ["parameters": [["$ref": "https://elsewhere.example/params.yaml#/Limit"]]]],
            ],
        ]
        let profile = try ServiceProfile(data: try JSONSerialization.data(withJSONObject: document))
        #expect(profile.resource(named: "item")?.template.template == "/api/items/{.id*}")
        #expect(profile.resource(named: "GET /things")?.template.template == "/api/things")
        let referenced = try ServiceProfile.problems(in: try JSONSerialization.data(withJSONObject: document))
        #expect(referenced.map(\.kind) == [.unsupported])

        let swagger = try JSONSerialization.data(withJSONObject: ["swagger": "2.0", "paths": [:]])
        let old = #expect(throws: ServiceError.self) { try ServiceProfile(data: swagger) }
        #expect(old?.problems.map(\.kind) == [.unsupported])
        #expect(old?.description.contains("Swagger 2.0") == true)

        let twice: [String: Any] = [
            "openapi": "3.0.0",
            "paths": ["/a": ["get": ["operationId": "same"]], "/b": ["get": ["operationId": "same"]]],
        ]
        let duplicate = #expect(throws: ServiceError.self) { try ServiceProfile(data: try JSONSerialization.data(withJSONObject: twice)) }
        #expect(duplicate?.problems.map(\.kind) == [.duplicateName])
    }

    @Test func aDocumentFetchedFromTheServerItDescribesIsAProfile() async throws {
        try await withSandbox(registry: .standard()) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/openapi.yaml")))
            let profile = try await ServiceProfile.fetch(from: url, session: session)
            #expect(try ServiceProfile.problems(in: Data(SandboxOpenAPI.document(server: sandbox.baseURL).utf8)).isEmpty)
            #expect(profile.baseURL == sandbox.baseURL)
            let service = HTTPService(profile: profile, session: session)
            let entry = try await service.request("entry", values: ["key": "fetched", "type": "json"])
            #expect((entry.response?.object as? JSONValue)?["hit"].int == 1)

            let missing = try #require(URL(string: sandbox.url("/status/404")))
            let error = await #expect(throws: HTTPError.self) { try await ServiceProfile.fetch(from: missing, session: session) }
            #expect(error?.code == .statusCode)
        }
    }
}
