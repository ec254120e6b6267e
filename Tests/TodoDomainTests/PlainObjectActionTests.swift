import Foundation
import SyncProtocol
import Testing
import TodoDomain

/// The item actions' `init(plainObject:)` (the daemon's fast path) gives what their `Decodable`
/// conformance gives, on every payload it takes, and takes the payloads clients send.
@Suite struct PlainObjectActionTests {
    /// Payloads of every shape the actions meet: as clients send them, as the journal keeps
    /// them after acceptance, with nulls, extra members, other kinds, numbers out of range.
    static let payloads = [
        #"{"text":"buy milk"}"#,
        #"{"number":3}"#,
        #"{"number":3,"text":"é ünïcode ✓ 🚀"}"#,
        #"{"number":-1,"text":""}"#,
        #"{"change":12,"createdAt":1700000000001,"id":"3627721e-0000-4000-8000-000000000000","text":"a"}"#,
        #"{"change":12,"completedAt":1700000000003,"number":9}"#,
        #"{"change":null,"completedAt":null,"createdAt":null,"doneBy":null,"id":null,"number":1,"text":"x"}"#,
        #"{"doneBy":-9223372036854775808,"number":9223372036854775807}"#,
        #"{"number":9223372036854775808,"text":"x"}"#,
        #"{"number":"3","text":3}"#,
        #"{"number":3,"text":"x","change":true,"id":7,"createdAt":"now","completedAt":[],"doneBy":{}}"#,
        #"{"number":3,"text":"x","extra":{"nested":[1,2,{"deep":null}]},"more":false}"#,
        #"{}"#,
    ]

    @Test func eachActionReadsPlainlyWhatItsDecodableConformanceDecodes() throws {
        for payload in Self.payloads {
            try expectAlike(AddItem.self, payload)
            try expectAlike(CompleteItem.self, payload)
            try expectAlike(ReopenItem.self, payload)
            try expectAlike(EditItem.self, payload)
            try expectAlike(RemoveItem.self, payload)
        }
    }

    @Test func whatClientsAndTheJournalSendIsReadPlainly() throws {
        var accepted = EditItem(number: 4, text: "new text")
        accepted.change = 17
        var remove = RemoveItem(number: 2, doneBy: 1_700_000_000_000)
        remove.change = 3
        #expect(try readsPlainly(AddItem(text: "buy milk")))
        #expect(try readsPlainly(CompleteItem(number: 1)))
        #expect(try readsPlainly(ReopenItem(number: 1)))
        #expect(try readsPlainly(EditItem(number: 4, text: "new text")))
        #expect(try readsPlainly(accepted))
        #expect(try readsPlainly(remove))
    }

    /// Whether `action`'s wire encoding is read by `init(plainObject:)`, as what it was.
    private func readsPlainly<A: PlainObjectDecodable & Encodable>(_ action: A) throws -> Bool {
        let bytes = try WireJSON.encode(action)
        guard let object = PlainObject(plainJSON: bytes), let read = A(plainObject: object) else { return false }
        return try WireJSON.encode(read) == bytes
    }

    /// When `init(plainObject:)` takes `payload`, `JSONDecoder` decodes the same action.
    private func expectAlike<A: PlainObjectDecodable & Encodable>(_ type: A.Type, _ payload: String) throws {
        let object = try #require(PlainObject(plainJSON: Array(payload.utf8)), "not plain: \(payload)")
        guard let read = A(plainObject: object) else { return }
        let decoded = try #require(
            try? JSONDecoder().decode(A.self, from: Data(payload.utf8)),
            "\(A.self) read \(payload) plainly, and JSONDecoder refuses it")
        #expect(try WireJSON.encode(read) == WireJSON.encode(decoded), "\(A.self): \(payload)")
    }
}
