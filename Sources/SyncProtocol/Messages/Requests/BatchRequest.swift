/// `batch {id, actions: [{name, payload}, …], sequence?}`: several actions applied all or
/// nothing, at consecutive versions, in one journal transaction, acked together with the last
/// one's version. The actions are the app's: the server decodes each by its type
/// (`BatchEnvelope`).
public struct BatchRequest: RequestMessage {
    public static let type = "batch"
    /// Most actions in one batch.
    public static let maximumCount = 1000
    public var id: Int64
    /// The batch's number among the dispatches of the connection's client id (at least 1), if
    /// numbered: the batch applies at most once, as a numbered dispatch does.
    public var sequence: Int64?

    /// A batch with request id `id`, numbered `sequence` if given.
    public init(id: Int64, sequence: Int64? = nil) {
        self.id = id
        self.sequence = sequence
    }

    public init(id: Int64) { self.init(id: id, sequence: nil) }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.attachment("actions")
        visitor.optional("sequence", &sequence)
    }

    public func refusal() -> String? {
        sequence.map { $0 >= 1 } ?? true ? nil : "\"sequence\" must be an integer of at least 1."
    }

    /// The payload to send, with `actions`: each action's wire name and encoded payload.
    public func encoded(actions: [(name: String, payload: [UInt8])]) throws -> [UInt8] {
        var list: [UInt8] = [UInt8(ascii: "[")]
        for (index, action) in actions.enumerated() {
            if index > 0 { list.append(UInt8(ascii: ",")) }
            list += Array(#"{"name":"#.utf8)
            try WireJSON.appendString(action.name, to: &list)
            list += Array(#","payload":"#.utf8)
            list += action.payload
            list.append(UInt8(ascii: "}"))
        }
        list.append(UInt8(ascii: "]"))
        return encoded(attaching: list)
    }
}

/// The actions of a `batch` frame, as the server reads them: each one's name, and its payload
/// left as JSON until its type is known (an omitted payload is `{}`).
public struct BatchEnvelope: Decodable {
    /// One action of the batch.
    public struct Item: Decodable {
        /// The action's wire name.
        public let name: String
        /// Its payload, an object.
        public let payload: JSONValue?
    }

    /// The actions, in order.
    public let actions: [Item]
}
