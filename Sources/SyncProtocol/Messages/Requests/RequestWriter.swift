/// The encoder of a request: writes the fields a request visits, with `type` and `id`, keys
/// sorted as `WireJSON` sorts them, so its bytes are those the encoder would write. Fields are
/// visited in the order of their names, so each is written as it comes.
struct RequestWriter: RequestFieldVisitor {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    /// `id` and `type`, still to be written where their names sort.
    private var pending: [(key: String, value: [UInt8])]
    private let attachmentBytes: [UInt8]
    private var previousKey = ""

    init(type: String, id: Int64, attachment: [UInt8]) {
        var typeBytes: [UInt8] = []
        type.write(to: &typeBytes)
        var idBytes: [UInt8] = []
        id.write(to: &idBytes)
        pending = [("id", idBytes), ("type", typeBytes)]
        attachmentBytes = attachment
    }

    private init(attachment: [UInt8]) {
        pending = []
        attachmentBytes = attachment
    }

    /// The message, closed.
    mutating func finished() -> [UInt8] {
        for (key, value) in pending {
            writeKey(key)
            bytes += value
        }
        pending = []
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    mutating func required<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value) {
        startMember(name.description)
        value.write(to: &bytes)
    }

    mutating func optional<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value?) {
        guard let value else { return }
        startMember(name.description)
        value.write(to: &bytes)
    }

    mutating func defaulted<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value) {
        guard !value.isOmitted else { return }
        startMember(name.description)
        value.write(to: &bytes)
    }

    mutating func object(_ name: StaticString, _ body: (inout RequestWriter) -> Void) {
        startMember(name.description)
        var inner = RequestWriter(attachment: attachmentBytes)
        body(&inner)
        bytes += inner.finished()
    }

    mutating func attachment(_ name: StaticString) {
        startMember(name.description)
        bytes += attachmentBytes
    }

    /// Writes the pending members that sort before `key`, then `key` itself.
    private mutating func startMember(_ key: String) {
        assert(key > previousKey, "a request's fields are visited in the order of their names")
        previousKey = key
        while let first = pending.first, first.key < key {
            pending.removeFirst()
            writeKey(first.key)
            bytes += first.value
        }
        writeKey(key)
    }

    private mutating func writeKey(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        key.write(to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
