import Foundation
import JewzImageCache
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz image URL [--cache DIR] [--json]`, run as a user runs it.
@Suite struct ImageCommandTests {
    @Test func eachFormatIsDescribedFromItsHeader() async throws {
        let sandbox = try await Sandbox.start()
        for entry in SandboxImages.catalog {
            let run = try await runJewz(["image", "--json", sandbox.url("/cached/each?image=\(entry.name)")])
            #expect(run.status == 0, "\(entry.name): \(run.error)")
            let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            #expect(object?["format"] as? String == entry.format)
            #expect(object?["width"] as? Int == entry.width)
            #expect(object?["height"] as? Int == entry.height)
            #expect(object?["bytes"] as? Int == SandboxImages.data(named: entry.name)?.count)
            #expect(object?["source"] as? String == "network")
        }
        try await sandbox.shutdown()
    }

    @Test func aSecondRunFindsTheImageOnDisk() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = sandbox.url("/cached/kept?image=plain.png&cc=max-age=600")
        let first = try await runJewz(["image", url, "--cache", directory.path])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output == "png 37×23, 201 bytes, from the network\n")
        let second = try await runJewz(["image", "--json", url, "--cache", directory.path])
        #expect(second.output.contains(#""source":"disk""#), "\(second.output)")
        #expect(sandbox.router.cacheHits(forKey: "kept") == 1)
        let checked = sandbox.url("/cached/checked?image=plain.gif&cc=no-cache&etag=v1")
        _ = try await runJewz(["image", checked, "--cache", directory.path])
        let revalidated = try await runJewz(["image", "--json", checked, "--cache", directory.path])
        #expect(revalidated.output.contains(#""source":"revalidated""#), "\(revalidated.output)")
        try await sandbox.shutdown()
    }

    @Test func aBodyThatIsNoImageExitsWithOneLine() async throws {
        let sandbox = try await Sandbox.start()
        let text = try await runJewz(["image", sandbox.url("/hello/")])
        #expect(text.status == 3)
        #expect(text.output.isEmpty)
        #expect(text.messages.count == 1)
        #expect(text.messages.first?.contains("not an image: it looks like text") == true, "\(text.error)")
        let json = try await runJewz(["image", sandbox.url("/json")])
        #expect(json.status == 3)
        #expect(json.messages.first?.contains("looks like JSON") == true, "\(json.error)")
        let missing = try await runJewz(["image", sandbox.url("/status/404")])
        #expect(missing.status == 4)
        let bad = try await runJewz(["image", "ftp://example.com/x.png"])
        #expect(bad.status == 1)
        try await sandbox.shutdown()
    }
}
