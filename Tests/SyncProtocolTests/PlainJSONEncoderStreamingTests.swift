import Testing

@testable import SyncProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PlainJSONEncoder` writes each value as soon as it is complete; these are the shapes that
/// could go wrong that way: deep values, large members between small ones, containers handed
/// out and filled later in any order, and refusals found deep in a large value.
@Suite struct PlainJSONEncoderStreamingTests {
    /// A value holding values like itself, `depth` deep.
    struct Nest: Codable {
        var name: String
        var child: [Nest]
        var weight: Double?

        static func make(depth: Int, weight: Double? = nil) -> Nest {
            Nest(
                name: "level \(depth)", child: depth == 0 ? [] : [make(depth: depth - 1, weight: weight)],
                weight: depth == 0 ? weight : nil)
        }
    }

    struct Item: Codable {
        var number: Int
        var text: String
        var tags: [String]
        var completedAt: Int64?
    }

    /// A large member sorted between small ones, encoded in another order than sorted.
    struct Big: Codable {
        var zulu: Int
        var items: [Item]
        var alpha: String
        var mike: [Int]
    }

    private func foundation(_ value: some Encodable) throws -> [UInt8] {
        Array(try WireJSON.makeEncoder().encode(value))
    }

    /// Writes `value` with `PlainJSONEncoder`, which must not refuse it, and expects the bytes
    /// `JSONEncoder` writes.
    private func expectPlainAsFoundation(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let plain = try PlainJSONEncoder.encode(value)
        #expect(
            String(decoding: plain, as: UTF8.self) == String(decoding: try foundation(value), as: UTF8.self),
            sourceLocation: sourceLocation)
    }

    /// `PlainJSONEncoder` refuses `value`, and `WireJSON.encode` writes `JSONEncoder`'s bytes.
    private func expectRefusedAndFallenBack(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        #expect(throws: PlainJSONEncoder.Unsupported.self, sourceLocation: sourceLocation) {
            try PlainJSONEncoder.encode(value)
        }
        #expect(try WireJSON.encode(value) == (try foundation(value)), sourceLocation: sourceLocation)
    }

    @Test func deepValuesEncodeAsJSONEncoderDoes() throws {
        // JSONEncoder refuses more than 512 levels; each of these is two.
        try expectPlainAsFoundation(Nest.make(depth: 250))
        try expectPlainAsFoundation([Nest.make(depth: 40), Nest.make(depth: 0), Nest.make(depth: 7)])
        var arrays: JSONValue = .integer(1)
        for depth in 0..<200 {
            arrays = depth.isMultiple(of: 3) ? .object(["k": arrays, "a": .null]) : .array([arrays, .bool(true)])
        }
        try expectPlainAsFoundation(arrays)
    }

    @Test func aLargeMemberAmongSmallOnesKeepsItsPlace() throws {
        let items = (0..<20_000).map {
            Item(
                number: $0, text: String(repeating: "t\"\\", count: $0 % 50), tags: $0.isMultiple(of: 7) ? ["x"] : [],
                completedAt: $0.isMultiple(of: 3) ? Int64($0) * 1000 : nil)
        }
        try expectPlainAsFoundation(Big(zulu: 1, items: items, alpha: "a", mike: [3, 2, 1]))
        try expectPlainAsFoundation(
            Big(
                zulu: -1, items: Array(items.prefix(3)), alpha: String(repeating: "x", count: 5000),
                mike: Array(0..<2000)))
        try expectPlainAsFoundation(Big(zulu: 0, items: [], alpha: "", mike: []))
    }

    /// Asks for its containers first and fills them afterwards, the first after the second, and
    /// encodes members directly in between.
    struct OutOfOrder: Encodable {
        enum Keys: String, CodingKey { case zulu, alpha, middle, list, tail, empty, emptyList }
        enum Inner: String, CodingKey { case bravo, alpha }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedContainer(keyedBy: Inner.self, forKey: .zulu)
            var second = container.nestedContainer(keyedBy: Inner.self, forKey: .alpha)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            _ = container.nestedContainer(keyedBy: Inner.self, forKey: .empty)
            _ = container.nestedUnkeyedContainer(forKey: .emptyList)
            try second.encode("second", forKey: .bravo)
            try container.encode(Item(number: 7, text: "middle", tags: ["m"], completedAt: nil), forKey: .middle)
            try first.encode(1, forKey: .bravo)
            try list.encode(1)
            var object = list.nestedContainer(keyedBy: Inner.self)
            var array = list.nestedUnkeyedContainer()
            try list.encode(Item(number: 8, text: "after", tags: [], completedAt: 9))
            try array.encode(3)
            var deeper = array.nestedContainer(keyedBy: Inner.self)
            try array.encode("array end")
            try object.encode("x", forKey: .alpha)
            try deeper.encode(true, forKey: .bravo)
            try deeper.encode(deeper.codingPath.map(\.stringValue), forKey: .alpha)
            try first.encode([1, 2], forKey: .alpha)
            try second.encode(true, forKey: .alpha)
            try container.encode("t", forKey: .tail)
        }
    }

    @Test func containersFilledOutOfOrderEncodeAsJSONEncoderDoes() throws {
        try expectPlainAsFoundation(OutOfOrder())
        try expectPlainAsFoundation([OutOfOrder(), OutOfOrder()])
        try expectPlainAsFoundation(["b": [OutOfOrder()], "a": []])
    }

    /// Writes the coding path it is encoded at.
    struct Path: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "/"))
        }
    }

    @Test func codingPathsAreJSONEncoder() throws {
        try expectPlainAsFoundation(["first": [[Path(), Path()]], "second": [[Path()]]])
    }

    /// Hands what it encodes to a `superEncoder` of the kind `kind` names.
    struct Super: Encodable {
        enum Keys: String, CodingKey { case base, own }
        var kind: Int

        func encode(to encoder: any Encoder) throws {
            if kind == 2 {
                var container = encoder.unkeyedContainer()
                try container.encode("own")
                try "base".encode(to: container.superEncoder())
                return
            }
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("own", forKey: .own)
            try "base".encode(to: kind == 0 ? container.superEncoder() : container.superEncoder(forKey: .base))
        }
    }

    /// A value encoded after a deep one.
    struct Beside<Later: Encodable>: Encodable {
        var deep: [Nest]
        var later: [Later]
    }

    @Test func superEncodersFallBackToJSONEncoder() throws {
        for kind in 0..<3 {
            try expectRefusedAndFallenBack(Super(kind: kind))
            try expectRefusedAndFallenBack(Beside(deep: [Nest.make(depth: 3)], later: [Super(kind: kind)]))
        }
    }

    /// Encodes `inner`, catching what it throws, then a member of its own.
    struct Catching: Encodable {
        enum Keys: String, CodingKey { case inner, own }
        var inner: Nest

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try? container.encode(inner, forKey: .inner)
            try container.encode("own", forKey: .own)
        }
    }

    @Test func whatIsRefusedDeepInALargeArrayFallsBack() throws {
        let count = 20_000
        func items(with odd: Nest, at index: Int) -> [Nest] {
            (0..<count).map { $0 == index ? odd : Nest.make(depth: $0 % 3) }
        }
        try expectRefusedAndFallenBack(items(with: .make(depth: 5, weight: 0.5), at: count - 7))
        try expectRefusedAndFallenBack(items(with: .make(depth: 1, weight: 1), at: 0))
        try expectRefusedAndFallenBack(["list": items(with: Nest(name: "tab\t", child: [], weight: nil), at: 9000)])
        try expectRefusedAndFallenBack(["é": items(with: .make(depth: 0), at: 0)])
        // A value that catches the refusal of a member: JSONEncoder writes that member.
        try expectRefusedAndFallenBack([Catching(inner: .make(depth: 2, weight: 2.5))])
    }

    /// Encodes a value by `way`: nothing, a scalar twice, a scalar then an object, or an
    /// object asked for twice.
    struct Odd: Encodable {
        enum Keys: String, CodingKey { case alpha, bravo }
        var way: Int

        func encode(to encoder: any Encoder) throws {
            switch way {
            case 0: break
            case 1:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                try? single.encode(2)
            case 2:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                var keyed = encoder.container(keyedBy: Keys.self)
                try? keyed.encode(1, forKey: .alpha)
            default:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .bravo)
                var again = encoder.container(keyedBy: Keys.self)
                try again.encode(1, forKey: .alpha)
            }
        }
    }

    @Test func valuesWrittenTwiceOrNotAtAllAreRefused() throws {
        for way in 0..<3 {
            #expect(throws: PlainJSONEncoder.Unsupported.self) { try PlainJSONEncoder.encode([Odd(way: way)]) }
        }
        try expectPlainAsFoundation(["x": Odd(way: 3)])
    }
}
