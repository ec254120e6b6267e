/// One request type, described once: its wire `type` and, in `visitFields`, each of its fields
/// with its wire name, its type and whether it may be absent. The fast-path scan
/// (`RequestScan`), the reference decoder (`RequestDecoding`) and the encoder (`RequestWriter`)
/// are the visitors that walk that one description.
public protocol RequestMessage: Sendable, Equatable {
    /// The message's `type` on the wire.
    static var type: String { get }
    /// The request id the reply echoes.
    var id: Int64 { get set }
    /// A request with this `id` and every other field absent (or at its default), as a
    /// visitor starts from before it fills the fields in.
    init(id: Int64)
    /// Walks the fields other than `type` and `id`, in the order of their wire names (the
    /// order the encoder writes them in).
    mutating func visitFields(_ visitor: inout some RequestFieldVisitor)
    /// Why the request is refused once every field has its type (a value out of range), or
    /// `nil` when it is served.
    func refusal() -> String?
}

extension RequestMessage {
    /// No rule beyond the fields' types.
    public func refusal() -> String? { nil }

    /// The request's JSON payload, keys sorted as `WireJSON` writes them; `attachment` is the
    /// encoded JSON of the request's attachment (see `RequestFieldVisitor.attachment`), if it
    /// has one.
    func encoded(attaching attachment: [UInt8] = []) -> [UInt8] {
        var writer = RequestWriter(type: Self.type, id: id, attachment: attachment)
        var copy = self
        copy.visitFields(&writer)
        return writer.finished()
    }
}
