#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The reference reader of a request's fields: `JSONDecoder`'s container, for every request
/// the scan does not take. A field of the wrong type is remembered (`badField`), not thrown,
/// so that the error can still echo the request's id.
struct RequestDecoding: RequestFieldVisitor {
    /// The object's container.
    let container: KeyedDecodingContainer<RequestKey>
    /// The keys of the object written as numbers with a fraction or an exponent.
    let nonIntegers: Set<String>
    /// The first field whose value has the wrong type.
    private(set) var badField: String?
    /// The first required field that is absent.
    private(set) var missing: StaticString?

    init(_ container: KeyedDecodingContainer<RequestKey>, nonIntegers: Set<String>) {
        self.container = container
        self.nonIntegers = nonIntegers
    }

    mutating func required<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value) {
        guard let decoded = decode(Value.self, name) else { return }
        if let decoded { value = decoded } else { missing = missing ?? name }
    }

    mutating func optional<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value?) {
        guard let decoded = decode(Value.self, name) else { return }
        value = decoded
    }

    mutating func defaulted<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value) {
        guard let decoded = decode(Value.self, name), let decoded else { return }
        value = decoded
    }

    mutating func object(_ name: StaticString, _ body: (inout RequestDecoding) -> Void) {
        let key = RequestKey(name)
        guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else {
            missing = missing ?? name
            return
        }
        guard let inner = try? container.nestedContainer(keyedBy: RequestKey.self, forKey: key) else {
            badField = badField ?? key.stringValue
            return
        }
        var decoding = RequestDecoding(inner, nonIntegers: [])
        body(&decoding)
        if decoding.badField != nil || decoding.missing != nil { badField = badField ?? key.stringValue }
    }

    mutating func attachment(_ name: StaticString) {}

    /// The field's value (`.some(nil)` when absent), or `nil` when it has the wrong type.
    private mutating func decode<Value: RequestFieldValue>(_ type: Value.Type, _ name: StaticString) -> Value?? {
        let key = RequestKey(name)
        do {
            return .some(try Value.decode(key, from: container, refusing: nonIntegers))
        } catch {
            badField = badField ?? key.stringValue
            return nil
        }
    }
}
