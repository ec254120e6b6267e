/// `ping {id}`, answered at once with `pong`.
public struct PingRequest: RequestMessage {
    public static let type = "ping"
    public var id: Int64

    public init(id: Int64) { self.id = id }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {}

    /// The payload to send.
    public func encoded() -> [UInt8] { encoded(attaching: []) }
}
