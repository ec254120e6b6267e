import SyncProtocol
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `PlainObject`'s accessors, and `WireJSON.decode` reading a `PlainObjectDecodable` type
/// through `init(plainObject:)` when that takes the object, through `init(from:)` otherwise.
@Suite struct PlainObjectDecodableTests {
    /// Says which initializer made it; `init(plainObject:)` leaves negative values to `init(from:)`.
    struct Probe: PlainObjectDecodable, Equatable {
        var value: Int
        var note: String?
        var readPlainly: Bool

        enum CodingKeys: String, CodingKey { case value, note }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = try container.decode(Int.self, forKey: .value)
            note = try container.decodeIfPresent(String.self, forKey: .note)
            readPlainly = false
        }

        init?(plainObject object: PlainObject) {
            guard let value = object.integer("value"), value >= 0, let note = object.optionalString("note") else {
                return nil
            }
            (self.value, self.note, readPlainly) = (value, note, true)
        }
    }

    private func object(_ json: String) throws -> PlainObject {
        try #require(PlainObject(plainJSON: Array(json.utf8)), "not a plain object: \(json)")
    }

    @Test func eachAccessorGivesAValueOfItsKindAndNilForAnyOther() throws {
        let object = try object(
            #"{"one":1,"min":-9223372036854775808,"over":9223372036854775808,"zero":-0,"text":"é ✓","empty":"","none":null,"yes":true,"list":[1],"inner":{"one":1}}"#
        )
        #expect(object.integer("one") == 1)
        #expect(object.int64("min") == Int64.min)
        #expect(object.integer("over") == nil && object.int64("over") == nil)
        #expect(object.integer("zero") == 0)
        #expect(object.string("text") == "é ✓")
        #expect(object.string("empty") == "")
        for key: StaticString in ["none", "yes", "list", "inner", "absent"] {
            #expect(object.integer(key) == nil && object.string(key) == nil, "\(key)")
        }
        #expect(object.integer("text") == nil && object.string("one") == nil)
    }

    @Test func optionalAccessorsTellAbsentAndNullFromAnotherKind() throws {
        let object = try object(#"{"number":7,"text":"a","none":null,"yes":true}"#)
        #expect(object.optionalInteger("number") == .some(7))
        #expect(object.optionalInt64("number") == .some(7))
        #expect(object.optionalString("text") == .some("a"))
        for key: StaticString in ["none", "absent"] {
            #expect(object.optionalInteger(key) == .some(nil), "\(key)")
            #expect(object.optionalInt64(key) == .some(nil), "\(key)")
            #expect(object.optionalString(key) == .some(nil), "\(key)")
        }
        #expect(object.optionalInteger("yes") == nil)
        #expect(object.optionalInteger("text") == nil)
        #expect(object.optionalString("number") == nil)
    }

    @Test func onlyAPlainObjectIsReadMemberByMember() {
        let notPlainObjects = [
            #"[1]"#, #""text""#, #"{"a":"line\nbreak"}"#, #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":1,"a":2}"#, #"{"a":"#,
            #" {"a":1}"#,
        ]
        for json in notPlainObjects {
            #expect(PlainObject(plainJSON: Array(json.utf8)) == nil, "\(json)")
        }
    }

    @Test func wireDecodingReadsPlainlyWhatInitPlainObjectTakesAndLeavesTheRestToInitFrom() throws {
        let plain = try WireJSON.decode(Probe.self, from: Array(#"{"note":"n","value":3,"other":[1]}"#.utf8))
        #expect(plain == Probe(value: 3, note: "n", readPlainly: true))
        let refused = try WireJSON.decode(Probe.self, from: Array(#"{"value":-3}"#.utf8))
        #expect(refused == Probe(value: -3, note: nil, readPlainly: false))
        let notPlain = try WireJSON.decode(Probe.self, from: Array(#"{"value":3,"note":"a\tb"}"#.utf8))
        #expect(notPlain == Probe(value: 3, note: "a\tb", readPlainly: false))
        // A member of another kind: `init(from:)` decodes it, and its error is JSONDecoder's.
        #expect(throws: DecodingError.self) { try WireJSON.decode(Probe.self, from: Array(#"{"value":"3"}"#.utf8)) }
    }

    /// A final class conforms as a struct does (`read(_:into:)` moves the one reference out).
    final class Box: PlainObjectDecodable {
        let value: Int
        let readPlainly: Bool

        enum CodingKeys: String, CodingKey { case value }

        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .value)
            readPlainly = false
        }

        init?(plainObject object: PlainObject) {
            guard let value = object.integer("value"), value >= 0 else { return nil }
            (self.value, readPlainly) = (value, true)
        }
    }

    @Test func aFinalClassIsReadPlainlyAndHeldOnceOrLeftToInitFrom() throws {
        var plain = try WireJSON.decode(Box.self, from: Array(#"{"value":5}"#.utf8))
        #expect(plain.value == 5 && plain.readPlainly)
        #expect(isKnownUniquelyReferenced(&plain))
        let refused = try WireJSON.decode(Box.self, from: Array(#"{"value":-5}"#.utf8))
        #expect(refused.value == -5 && !refused.readPlainly)
        let payload = Array(#"{"action":{"name":"box","payload":{"value":7}},"id":1,"type":"dispatch"}"#.utf8)
        var dispatched = try DispatchPayloadLocation(scanning: payload).decodePayload(Box.self, from: payload)
        #expect(dispatched.value == 7 && dispatched.readPlainly)
        #expect(isKnownUniquelyReferenced(&dispatched))
    }
}

extension PlainObjectDecodableTests.Probe {
    init(value: Int, note: String?, readPlainly: Bool) {
        (self.value, self.note, self.readPlainly) = (value, note, readPlainly)
    }
}
