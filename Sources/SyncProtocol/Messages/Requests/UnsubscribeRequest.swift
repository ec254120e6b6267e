/// `unsubscribe {id, subscription}`.
public struct UnsubscribeRequest: RequestMessage {
    public static let type = "unsubscribe"
    public var id: Int64
    /// The subscription's id, as `subscribed` gave it.
    public var subscription: Int64

    /// An end to `subscription`.
    public init(id: Int64, subscription: Int64) {
        self.id = id
        self.subscription = subscription
    }

    public init(id: Int64) { self.init(id: id, subscription: 0) }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.required("subscription", &subscription)
    }

    /// The payload to send.
    public func encoded() -> [UInt8] { encoded(attaching: []) }
}
