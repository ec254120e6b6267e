/// The fast path's reader of a request's fields: one pass of `JSONObjectFields`, no
/// `JSONDecoder`. It takes only plain values (see `RequestFieldValue.scan`); at anything else
/// it gives up (`isPlain` is false) and the reference decoder reads the request instead, so
/// both ways give the same request or the same error.
struct RequestScan: RequestFieldVisitor {
    /// The scanned object.
    let fields: JSONObjectFields
    /// Whether every field read so far was absent or plain.
    private(set) var isPlain = true
    /// The first required field that is absent.
    private(set) var missing: StaticString?
    /// Where the last attachment visited is (a dispatch's payload).
    private(set) var attachment = DispatchPayloadLocation.unknown

    mutating func required<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value) {
        guard let member = fields.member(name) else {
            missing = missing ?? name
            return
        }
        read(member, into: &value)
    }

    mutating func optional<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value?) {
        guard let member = fields.member(name) else { return }
        guard let scanned = Value.scan(member, in: fields) else {
            isPlain = false
            return
        }
        value = scanned
    }

    mutating func defaulted<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value) {
        guard let member = fields.member(name) else { return }
        read(member, into: &value)
    }

    /// An object with a fault inside (a member absent or not plain) is left to the reference
    /// decoder, which says which field is wrong.
    mutating func object(_ name: StaticString, _ body: (inout RequestScan) -> Void) {
        guard let member = fields.member(name) else {
            missing = missing ?? name
            return
        }
        guard member.kind == .object,
            let inner = fields.expandedObject(member) ?? JSONObjectFields(fields.bytes, range: member.value)
        else {
            isPlain = false
            return
        }
        var scan = RequestScan(fields: inner)
        body(&scan)
        isPlain = isPlain && scan.isPlain && scan.missing == nil
        attachment = scan.attachment
    }

    mutating func attachment(_ name: StaticString) {
        attachment = DispatchPayloadLocation(fields.member(name), in: fields)
    }

    private mutating func read<Value: RequestFieldValue>(_ member: JSONObjectFields.Member, into value: inout Value) {
        guard let scanned = Value.scan(member, in: fields) else {
            isPlain = false
            return
        }
        value = scanned
    }
}
