import FuzzDriver
import JewzURITemplate

/// Feeds arbitrary bytes to the template parser, expands what parses with values made from the
/// same bytes, and checks that reading an expansion back and expanding again gives it unchanged.
///
/// Input layout: the bytes before the first 0x00 are the template (decoded lossily as UTF-8);
/// the rest make variable values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let text = String(decoding: bytes[..<split], as: UTF8.self)
    let rest = split < bytes.count ? Array(bytes[(split + 1)...]) : []
    guard let template = try? URITemplate(text) else { return 0 }

    let pieces = rest.split(separator: 0xFF, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var variables: [String: URITemplate.Value] = [:]
    for (position, name) in template.variableNames.enumerated() {
        let piece = pieces.isEmpty ? "" : pieces[position % pieces.count]
        switch position % 3 {
        case 0: variables[name] = .string(piece)
        case 1: variables[name] = .list(piece.split(separator: ",").map(String.init))
        default: variables[name] = .associative(piece.split(separator: ",").map { (String($0), piece) })
        }
    }
    guard let expansion = try? template.expand(variables) else { return 0 }
    if let values = template.match(expansion) {
        guard let again = try? template.expand(values), again == expansion else {
            fatalError("round trip broke: \(text.debugDescription) expanded to \(expansion.debugDescription), matched \(values), expanded again to a different string")
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("URITemplateFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
