/// A message from the server as a client reads it: one case per message type, each with its
/// own fields, so that a client matches on the case, never on a `type` string.
///
/// Models, patches and side-effect results are not decoded here: the caller decodes them
/// typed from the frame (`UpdateEnvelope`, `PatchEnvelope`). A message type this client does
/// not know is `.unknown`, which a client ignores (peers ignore what they do not know).
public enum ServerReply: Sendable, Equatable {
    /// The answer to `hello`.
    case welcome(Welcome)
    /// The action of request `id` was applied; the state is now at `version` (or later).
    case ack(id: Int64, version: UInt64)
    /// The dispatched side effect of request `id` finished at `version`; its `result` is in
    /// the frame.
    case result(id: Int64, version: UInt64)
    /// A request failed (`id`), or the connection broke a rule (`id` is `nil`).
    case error(ErrorReply)
    /// The answer to `subscribe`.
    case subscribed(id: Int64, subscription: Int64)
    /// A new model for a subscription at `version`: the whole model in the frame, or with
    /// `base` a patch to the model of that version.
    case update(subscription: Int64, version: UInt64, base: UInt64?)
    /// The answer to `unsubscribe`.
    case unsubscribed(id: Int64, subscription: Int64)
    /// The answer to `ping`.
    case pong(id: Int64)
    /// The answer to `history`: journaled actions, oldest first.
    case entries(id: Int64, entries: [HistoryEntry])
    /// The answer to `get`: the model at `version` is in the frame.
    case model(id: Int64, version: UInt64)
    /// The daemon is closing the connection on purpose, for `reason`.
    case bye(reason: String?)
    /// A message type this client does not know, with its request id if it has one.
    case unknown(type: String, id: Int64?)

    /// The request id this message answers, if it answers one.
    public var requestID: Int64? {
        switch self {
        case .ack(let id, _), .result(let id, _), .subscribed(let id, _), .unsubscribed(let id, _), .pong(let id),
            .entries(let id, _), .model(let id, _):
            return id
        case .error(let error): return error.id
        case .unknown(_, let id): return id
        case .welcome, .update, .bye: return nil
        }
    }

    /// The wire name of the message type, for messages about unexpected replies.
    public var typeName: String {
        switch self {
        case .welcome: return "welcome"
        case .ack: return "ack"
        case .result: return "result"
        case .error: return "error"
        case .subscribed: return "subscribed"
        case .update: return "update"
        case .unsubscribed: return "unsubscribed"
        case .pong: return "pong"
        case .entries: return "entries"
        case .model: return "model"
        case .bye: return "bye"
        case .unknown(let type, _): return type
        }
    }
}
