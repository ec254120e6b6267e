/// `dispatch {id, action: {name, payload}, sequence?}`: an action or a side effect by name.
/// The payload is the app's: the server decodes it by the action's type
/// (`DispatchPayloadLocation.decodePayload(_:from:)`), from where the scan found it.
public struct DispatchRequest: RequestMessage {
    public static let type = "dispatch"
    public var id: Int64
    /// The action's or side effect's wire name.
    public var actionName: String
    /// The action's number among those of the connection's client id (at least 1), if numbered.
    public var sequence: Int64?

    /// A dispatch of the action named `actionName`.
    public init(id: Int64, actionName: String, sequence: Int64? = nil) {
        self.id = id
        self.actionName = actionName
        self.sequence = sequence
    }

    public init(id: Int64) { self.init(id: id, actionName: "") }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.object("action") { action in
            action.required("name", &actionName)
            action.attachment("payload")
        }
        visitor.optional("sequence", &sequence)
    }

    public func refusal() -> String? {
        sequence.map { $0 >= 1 } ?? true ? nil : "\"sequence\" must be an integer of at least 1."
    }

    /// The payload to send, with the action's `payload` (keys sorted, as `WireJSON` writes them).
    public func encoded(payload: some Encodable) throws -> [UInt8] {
        encoded(attaching: try WireJSON.encode(payload))
    }
}
