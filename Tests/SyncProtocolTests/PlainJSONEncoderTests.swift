import TestSupport
import Testing

@testable import SyncProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PlainJSONEncoder` writes the bytes `JSONEncoder` writes with the wire settings, and refuses
/// what it cannot be sure to write the same way.
@Suite struct PlainJSONEncoderTests {
    enum Colour: String, Codable { case red, green }

    struct Item: Codable {
        var number: Int
        var text: String
        var completed: Bool
        var tags: [String]
        var colour: Colour?
        var createdAt: Int64
        var small: Int8
        var big: UInt64
        var nested: [[Int]]
        var note: String?
    }

    struct Wrapper: Codable {
        var items: [Item]
        var openCount: Int
        var id: String
    }

    private func foundation(_ value: some Encodable) throws -> String {
        String(decoding: try WireJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    @Test func writesPlainValuesAsJSONEncoderDoes() throws {
        let item = Item(
            number: -3, text: "plain text / with slash", completed: true, tags: ["a", ""], colour: .green,
            createdAt: 1_795_996_837_753,
            small: -128, big: .max, nested: [[1, 2], []], note: nil)
        let values: [any Encodable] = [
            Wrapper(items: [item, item], openCount: 2, id: "5A28-ab"), item, [item], "top", 42, true, [String: Int](),
            #"edit "quoted \ and \\""#, #"""#, #"\"#, #"a""b"#, ["key \"x\"": "\\"],
        ]
        for value in values {
            let plain = try PlainJSONEncoder.encode(value)
            #expect(String(decoding: plain, as: UTF8.self) == (try foundation(value)))
        }
    }

    @Test func refusesWhatItCannotWriteTheSameWay() {
        struct Weighted: Codable { var weight: Double }
        struct Keys: Codable {
            var aB: Int
            var ab: Int
        }
        struct Digits: Codable {
            var item10: Int
            var item9: Int
        }
        let refused: [any Encodable] = [
            "tab\t", "é", "line\n", Weighted(weight: 1), Keys(aB: 1, ab: 2), Digits(item10: 1, item9: 2),
            Date(timeIntervalSince1970: 0), Data([1]),
        ]
        for value in refused {
            #expect((try? PlainJSONEncoder.encode(value)) == nil, "\(value)")
        }
    }

    /// Random JSON values encode to the same bytes through `WireJSON.encode` as through
    /// `JSONEncoder`, whichever of the two writes them.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomValuesEncodeAlike(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let value = Self.randomValue(depth: 0, using: &random)
            #expect(String(decoding: try WireJSON.encode(value), as: UTF8.self) == (try foundation(value)))
        }
    }

    private static func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 6 : 8), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            return .integer(
                Int64.random(in: Int64.min...Int64.max, using: &random) >> Int64.random(in: 0..<63, using: &random))
        case 3: return Int.random(in: 0..<4, using: &random) == 0 ? .number(0.5) : .integer(7)
        case 4, 5:
            return .string(
                ["", "plain", "quote \" inside", "é✓", "slash /", "tab\t", "Upper", #"back\slash"#, #"\""#][
                    Int.random(in: 0..<9, using: &random)])
        case 6:
            return .array(
                (0..<Int.random(in: 0..<4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0..<4, using: &random) {
                members[
                    ["alpha", "beta", "Beta", "gamma", "delta", "k1", "zeta", "Alpha"][
                        Int.random(in: 0..<8, using: &random)]] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }
}
