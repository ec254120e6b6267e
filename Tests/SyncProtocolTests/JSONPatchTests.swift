import SyncProtocol
import TestSupport
import Testing

@Suite struct JSONPatchTests {
    private func list(_ rows: [(Int64, String, Bool)]) -> JSONValue {
        .object([
            "items": .array(
                rows.map { .object(["number": .integer($0.0), "text": .string($0.1), "completed": .bool($0.2)]) }),
            "openCount": .integer(Int64(rows.filter { !$0.2 }.count)),
        ])
    }

    @Test func aToggleInALongListIsTwoReplaces() throws {
        let rows = (1...10_000).map { (Int64($0), "item \($0)", false) }
        var toggled = rows
        toggled[4_999].2 = true
        let patch = JSONPatch(from: list(rows), to: list(toggled))
        #expect(
            patch.operations == [
                .init(op: "replace", path: "/items/4999/completed", value: .bool(true)),
                .init(op: "replace", path: "/openCount", value: .integer(9_999)),
            ])
        #expect(try patch.apply(to: list(rows)) == list(toggled))
    }

    @Test func insertsAndRemovesInOnePlaceAreAddsAndRemoves() throws {
        let old = JSONValue.array([1, 2, 3, 4, 5].map { .integer($0) })
        let inserted = JSONValue.array([1, 2, 9, 8, 3, 4, 5].map { .integer($0) })
        #expect(
            JSONPatch(from: old, to: inserted).operations == [
                .init(op: "add", path: "/2", value: .integer(9)), .init(op: "add", path: "/3", value: .integer(8)),
            ])
        let removed = JSONValue.array([1, 4, 5].map { .integer($0) })
        #expect(
            JSONPatch(from: old, to: removed).operations == [
                .init(op: "remove", path: "/2"), .init(op: "remove", path: "/1"),
            ])
        #expect(try JSONPatch(from: old, to: removed).apply(to: old) == removed)
    }

    @Test func keysNeedingEscapesRoundTrip() throws {
        let old = JSONValue.object(["a/b": .integer(1), "c~d": .integer(2)])
        let new = JSONValue.object(["a/b": .integer(3), "e": .null])
        let patch = JSONPatch(from: old, to: new)
        #expect(patch.operations.map(\.path) == ["/c~0d", "/a~1b", "/e"])
        #expect(try patch.apply(to: old) == new)
    }

    @Test func encodesAsTheBareArrayOfTheRFC() throws {
        let patch = JSONPatch(operations: [
            .init(op: "remove", path: "/x"), .init(op: "add", path: "/y", value: .string("z")),
        ])
        let text = String(decoding: try WireJSON.encode(patch), as: UTF8.self)
        #expect(text == #"[{"op":"remove","path":"/x"},{"op":"add","path":"/y","value":"z"}]"#)
        #expect(try WireJSON.decode(JSONPatch.self, from: try WireJSON.encode(patch)) == patch)
    }

    @Test func patchesThatDoNotFitAreErrors() {
        let document = JSONValue.object(["a": .array([.integer(1)])])
        #expect(throws: JSONPatchError.missingTarget(path: "/a/5")) {
            try JSONPatch(operations: [.init(op: "remove", path: "/a/5")]).apply(to: document)
        }
        #expect(throws: JSONPatchError.missingTarget(path: "/b/0")) {
            try JSONPatch(operations: [.init(op: "replace", path: "/b/0", value: .null)]).apply(to: document)
        }
        #expect(throws: JSONPatchError.invalidPath("a")) {
            try JSONPatch(operations: [.init(op: "add", path: "a", value: .null)]).apply(to: document)
        }
        #expect(throws: JSONPatchError.invalidPath("/~2")) {
            try JSONPatch(operations: [.init(op: "add", path: "/~2", value: .null)]).apply(to: document)
        }
        #expect(throws: JSONPatchError.missingValue(path: "/c")) {
            try JSONPatch(operations: [.init(op: "add", path: "/c")]).apply(to: document)
        }
        #expect(throws: JSONPatchError.unsupportedOperation("move")) {
            try JSONPatch(operations: [.init(op: "move", path: "/c")]).apply(to: document)
        }
        #expect(throws: JSONPatchError.testFailed(path: "/a/0")) {
            try JSONPatch(operations: [.init(op: "test", path: "/a/0", value: .integer(2))]).apply(to: document)
        }
    }

    /// Random documents changed at random: applying the patch always gives the new document.
    @Test(arguments: 0..<8) func applyingThePatchReproducesTheNewDocument(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var document = randomValue(depth: 3, using: &random)
        for _ in 0..<200 {
            let next = mutate(document, using: &random)
            let patch = JSONPatch(from: document, to: next)
            let decoded = try WireJSON.decode(JSONPatch.self, from: try WireJSON.encode(patch))
            #expect(try decoded.apply(to: document) == next)
            document = next
        }
    }

    private func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: -5...5, using: &random))
        // Not integral: after a trip through JSON, 1.0 reads back as the integer 1.
        case 3: return .number(Double(Int.random(in: 0...4, using: &random)) / 4 + 0.125)
        case 4: return .string(["", "a", "b/c", "~", "日本"].randomElement(using: &random)!)
        case 5:
            return .array(
                (0..<Int.random(in: 0...5, using: &random)).map { _ in randomValue(depth: depth - 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[["x", "y", "z/", "~w", ""].randomElement(using: &random)!] = randomValue(
                    depth: depth - 1, using: &random)
            }
            return .object(members)
        }
    }

    /// A few random changes somewhere in `value`: replace, insert, remove, recurse.
    private func mutate(_ value: JSONValue, using random: inout SeededRandom) -> JSONValue {
        switch value {
        case .array(var elements) where Bool.random(using: &random):
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                elements.insert(
                    randomValue(depth: 2, using: &random), at: Int.random(in: 0...elements.count, using: &random))
            case 1 where !elements.isEmpty: elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
            default:
                if let index = elements.indices.randomElement(using: &random) {
                    elements[index] = mutate(elements[index], using: &random)
                }
            }
            return .array(elements)
        case .object(var members) where Bool.random(using: &random):
            let key = ["x", "y", "z/", "~w", ""].randomElement(using: &random)!
            switch Int.random(in: 0..<3, using: &random) {
            case 0: members[key] = nil
            case 1:
                members[key] = members[key].map { mutate($0, using: &random) } ?? randomValue(depth: 2, using: &random)
            default: members[key] = randomValue(depth: 2, using: &random)
            }
            return .object(members)
        default:
            return Int.random(in: 0..<4, using: &random) == 0 ? randomValue(depth: 3, using: &random) : value
        }
    }
}
