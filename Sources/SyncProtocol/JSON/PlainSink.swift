/// The bytes `PlainJSONEncoder` writes for one `encode` call, or for one container handed out
/// by a `nestedContainer` (filled at any time until its parent completes), with the members of
/// the objects there that are not complete yet.
///
/// Values write here one inside another: the value writing now is the innermost open one, at
/// `openDepth`, and its bytes and members are the last ones. A value that completes leaves its
/// JSON as the last bytes and its parent the innermost again.
final class PlainSink {
    /// The JSON of the complete values, then the members of the open objects.
    // Unchecked: only the encoding's own calls touch them, one at a time, and the dynamic
    // checks cost more than the appends.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// The members of the open objects, the innermost object's last.
    @exclusivity(unchecked) var members: [PlainMember] = []
    /// The depth of the value that may write now; -1 once the sink's own value is complete.
    @exclusivity(unchecked) var openDepth = 0
    /// The sink of the whole `encode` call, which knows whether it failed; `nil` there.
    /// Unowned: the root's members hold the encoders of nested containers, which hold their
    /// sinks; the root outlives them all (the `encode` call holds it).
    private unowned let root: PlainSink?
    /// Whether something was found that this encoder leaves to `JSONEncoder` (in the root).
    @exclusivity(unchecked) private var rootFailed = false
    /// The type last asked about with `plainObjectEncodable` and the answer (in the root): the
    /// elements of an array ask one after another, and a conformance lookup is a call into the
    /// runtime's tables.
    @exclusivity(unchecked) private var lastAsked: (type: ObjectIdentifier, writable: (any PlainObjectEncodable.Type)?)?

    /// The sink of an `encode` call.
    init() {
        root = nil
    }

    /// A sink for a nested container of the encoding that writes into `parent`.
    init(nestedIn parent: PlainSink) {
        root = parent.root ?? parent
    }

    /// Whether the encoding has failed: from then on nothing is written, and every call that
    /// can throw throws `Unsupported`.
    var failed: Bool { root?.rootFailed ?? rootFailed }

    /// `type` as a `PlainObjectEncodable` type, if it is one.
    func plainObjectEncodable(_ type: Any.Type) -> (any PlainObjectEncodable.Type)? {
        let root = root ?? self
        let identifier = ObjectIdentifier(type)
        if let lastAsked = root.lastAsked, lastAsked.type == identifier { return lastAsked.writable }
        let writable = type as? any PlainObjectEncodable.Type
        root.lastAsked = (identifier, writable)
        return writable
    }

    /// Marks the encoding failed and returns the error to throw.
    @discardableResult
    func fail() -> PlainJSONEncoder.Unsupported {
        if let root { root.rootFailed = true } else { rootFailed = true }
        return PlainJSONEncoder.Unsupported()
    }
}

/// A member of an open object: its key and where its value is.
struct PlainMember {
    /// The key.
    let key: String
    /// Where its value starts in the sink's bytes (when `nested` is `nil`).
    let start: Int
    /// Where its value ends in the sink's bytes (when `nested` is `nil`).
    let end: Int
    /// The container handed out for the member, which holds its value in a sink of its own.
    let nested: PlainValueEncoder?
    /// How many bytes the key takes as JSON, once the object completes.
    var keyCount = 0

    /// How many bytes its value takes.
    var count: Int { nested?.sink.bytes.count ?? end - start }
}
