/// The `Encoder` `encode(to:)` sees for one value: it writes the value's JSON at the end of its
/// sink, and its parent completes it (`finish`) when `encode(to:)` has returned.
final class PlainValueEncoder: Encoder {
    /// What the value is so far.
    enum Shape {
        case empty
        case scalar
        /// An object, whose members are the sink's members from `firstMember` on.
        case object
        /// An array, whose `[` and elements so far are written.
        case array
        /// Finished: nothing more may be written.
        case complete
    }

    /// Where the value is written.
    let sink: PlainSink
    /// How many open values on `sink` hold this one.
    let depth: Int
    /// What the value is so far.
    @exclusivity(unchecked) private(set) var shape = Shape.empty
    /// Where the value starts in `sink.bytes`, once it is an object.
    @exclusivity(unchecked) private var start = 0
    /// For an object: the index of its first member in `sink.members`.
    @exclusivity(unchecked) private var firstMember = 0
    /// For an array: its elements so far.
    @exclusivity(unchecked) private(set) var count = 0
    /// For an array: the containers handed out for elements, and where their bytes go.
    private var nestedElements: [(offset: Int, encoder: PlainValueEncoder)] = []
    /// The encoder of the value holding this one, for `codingPath`. Unowned: the parent holds
    /// the encoders of the containers it handed out, and outlives them.
    private unowned let parent: PlainValueEncoder?
    /// The key or index of this value in its parent.
    private let key: (any CodingKey)?

    /// The encoder of the value of a whole `encode` call.
    init(sink: PlainSink) {
        self.sink = sink
        depth = 0
        parent = nil
        key = nil
    }

    /// An encoder at `depth` on `sink`, for the value at `key` in `parent`.
    private init(sink: PlainSink, depth: Int, parent: PlainValueEncoder, key: any CodingKey, shape: Shape) {
        self.sink = sink
        self.depth = depth
        self.parent = parent
        self.key = key
        self.shape = shape
        sink.openDepth = depth
    }

    /// The keys and indices that lead to the value.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: PlainValueEncoder? = self
        while let current = encoder, let key = current.key {
            path.append(key)
            encoder = current.parent
        }
        return path.reversed()
    }

    /// Nothing: the wire's types need no context.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Whether this value is the one that may write now.
    var isOpen: Bool { sink.openDepth == depth && shape != .complete && !sink.failed }

    /// The encoder of a member or element of this value, written next on the same sink.
    func child(at key: some CodingKey) -> PlainValueEncoder {
        PlainValueEncoder(sink: sink, depth: depth + 1, parent: self, key: key, shape: .empty)
    }

    /// The encoder of a container handed out for a member or element: an empty object or
    /// array in a sink of its own.
    func nested(at key: some CodingKey, shape: Shape) -> PlainValueEncoder {
        let encoder = PlainValueEncoder(
            sink: PlainSink(nestedIn: sink), depth: 0, parent: self, key: key, shape: shape)
        if shape == .array { encoder.sink.bytes.append(UInt8(ascii: "[")) }
        if shape == .object { encoder.sink.members.reserveCapacity(8) }
        // `start` and `firstMember` are 0: the sink is its own.
        return encoder
    }

    /// Encodes `value` as this value (which must be empty): a scalar at once, anything else
    /// through its `encode(to:)`. The caller finishes it.
    func encode<T: Encodable>(_ value: T) throws {
        guard shape == .empty, isOpen else { throw sink.fail() }
        if try PlainScalar.append(value, to: &sink.bytes, failing: sink) {
            shape = .scalar
            return
        }
        try encodeComposite(value)
    }

    /// Encodes `value`, which is not a scalar `PlainScalar` writes: through its
    /// `PlainObjectEncodable` conformance when it has one, else its `encode(to:)`. The caller
    /// finishes it.
    func encodeComposite<T: Encodable>(_ value: T) throws {
        if shape == .empty, isOpen, writePlainObject(value) {
            // Its bytes are complete, as a scalar's are: nothing is left for `finish`.
            shape = .scalar
            guard !sink.failed else { throw PlainJSONEncoder.Unsupported() }
            return
        }
        do {
            try value.encode(to: self)
        } catch {
            sink.fail()
            throw error
        }
    }

    /// Writes the value as a scalar (the value must be empty).
    func writeScalar(_ write: (inout [UInt8]) throws(PlainJSONEncoder.Unsupported) -> Void) throws(PlainJSONEncoder
        .Unsupported)
    {
        guard shape == .empty, isOpen else { throw sink.fail() }
        do {
            try write(&sink.bytes)
        } catch {
            throw sink.fail()
        }
        shape = .scalar
    }

    /// Makes the value an object, unless it is one already; `false` (and the encoding fails)
    /// when it is something else.
    func claimObject() -> Bool {
        guard isOpen else { return failClaim() }
        switch shape {
        case .empty:
            shape = .object
            start = sink.bytes.count
            firstMember = sink.members.count
            if sink.members.capacity == 0 { sink.members.reserveCapacity(8) }
            return true
        case .object: return true
        default: return failClaim()
        }
    }

    /// Makes the value an array, unless it is one already; `false` (and the encoding fails)
    /// when it is something else.
    func claimArray() -> Bool {
        guard isOpen else { return failClaim() }
        switch shape {
        case .empty:
            shape = .array
            sink.bytes.append(UInt8(ascii: "["))
            return true
        case .array: return true
        default: return failClaim()
        }
    }

    private func failClaim() -> Bool {
        sink.fail()
        return false
    }

    /// Counts an element of the array about to be written, after a comma when it is not the
    /// first.
    func beginElement() {
        if count > 0 { sink.bytes.append(UInt8(ascii: ",")) }
        count += 1
    }

    /// Hands out a container for the next element: its bytes go here when the array completes.
    func nestedElement(shape: Shape) -> PlainValueEncoder {
        let encoder = nested(at: PlainIndexKey(intValue: count), shape: shape)
        beginElement()
        nestedElements.append((sink.bytes.count, encoder))
        return encoder
    }

    /// Completes the value: an object's members are sorted and written, an array closed, the
    /// containers handed out for them completed first. The parent may write again.
    func finish() {
        let finished = shape
        shape = .complete
        sink.openDepth = depth - 1
        guard !sink.failed else { return }
        switch finished {
        case .empty, .complete: sink.fail()
        case .scalar: break
        case .object:
            for index in firstMember..<sink.members.count { sink.members[index].nested?.finish() }
            guard !sink.failed else { return }
            do {
                try sink.completeObject(at: start, members: firstMember)
            } catch {
                sink.fail()
            }
        case .array:
            for element in nestedElements { element.encoder.finish() }
            guard !sink.failed else { return }
            sink.completeArray(inserting: nestedElements)
        }
    }

    /// Makes the value an object and adds members to it.
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        _ = claimObject()
        return KeyedEncodingContainer(PlainKeyedEncodingContainer<Key>(encoder: self))
    }

    /// Makes the value an array and appends elements to it.
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = claimArray()
        return PlainUnkeyedEncodingContainer(encoder: self)
    }

    /// Sets the value on its own.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlainSingleValueEncodingContainer(encoder: self)
    }
}
