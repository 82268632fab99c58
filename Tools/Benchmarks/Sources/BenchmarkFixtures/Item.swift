/// The model both JSON benchmarks decode: the items of the Sandbox's `/items/N` (and of the
/// generated documents of JSONBenchmarks).
public struct Item: Decodable, Sendable {
    public var id: Int
    public var name: String
    public var price: Double
    public var tags: [String]
    public var active: Bool
}
