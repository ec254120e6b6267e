/// `history {id, after?, limit?}`: journaled actions after version `after` (default: the latest
/// `limit`), at most `limit` (default 20, at most `maximumLimit`).
public struct HistoryRequest: RequestMessage {
    public static let type = "history"
    /// The largest `limit` a request may ask for.
    public static let maximumLimit = 1000
    public var id: Int64
    /// The version after which entries start, if given.
    public var after: Int64?
    /// How many entries at most.
    public var limit: Int64

    /// A history request.
    public init(id: Int64, after: Int64?, limit: Int64 = 20) {
        self.id = id
        self.after = after
        self.limit = limit
    }

    public init(id: Int64) { self.init(id: id, after: nil) }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.optional("after", &after)
        visitor.defaulted("limit", &limit)
    }

    public func refusal() -> String? {
        guard (1...Int64(Self.maximumLimit)).contains(limit) else {
            return "\"limit\" must be from 1 to \(Self.maximumLimit)."
        }
        return after.map { $0 >= 0 } ?? true ? nil : "\"after\" must not be negative."
    }

    /// The payload to send.
    public func encoded() -> [UInt8] { encoded(attaching: []) }
}
