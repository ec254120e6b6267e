/// The `code` of an `error` message. Stable strings: clients switch on them.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    /// A frame header announced more bytes than the server accepts. The server closes.
    case frameTooLarge = "frame_too_large"
    /// A frame header announced 0 bytes. The server closes.
    case invalidFrame = "invalid_frame"
    /// A frame's payload is not UTF-8 JSON. The connection stays.
    case invalidJSON = "invalid_json"
    /// The JSON is not an object, or a field is missing or has the wrong type. The connection stays.
    case invalidMessage = "invalid_message"
    /// The message `type` is not one this protocol version knows. The connection stays.
    case unknownMessage = "unknown_message"
    /// Something other than `hello` came first. The server closes.
    case handshakeRequired = "handshake_required"
    /// The client asked for a protocol version the server does not speak. The server closes.
    case unsupportedProtocol = "unsupported_protocol"
    /// No action has this name.
    case unknownAction = "unknown_action"
    /// The action's payload does not decode as that action.
    case invalidPayload = "invalid_payload"
    /// The action was valid but a domain rule refused it; the state is unchanged.
    case rejected = "rejected"
    /// No view model has this name.
    case unknownViewModel = "unknown_view_model"
    /// The params do not decode as that view model's params.
    case invalidParams = "invalid_params"
    /// The subscription id is not one of this connection's subscriptions.
    case unknownSubscription = "unknown_subscription"
    /// The connection already holds the maximum number of subscriptions.
    case tooManySubscriptions = "too_many_subscriptions"
    /// The action could not be made durable (disk full, I/O error); it was not applied.
    case storageUnavailable = "storage_unavailable"
    /// A resent numbered dispatch whose sequence is at or below the client id's highest applied
    /// one but no longer remembered (or never applied): it may or may not have been applied, and
    /// it is not applied now.
    case staleSequence = "stale_sequence"
    /// The connection already runs the maximum number of dispatched side effects at once.
    case tooManySideEffects = "too_many_side_effects"
    /// The dispatched side effect was cancelled before it finished (the daemon is stopping);
    /// actions it dispatched before stay applied.
    case cancelled = "cancelled"
    /// A `get` asked for a version above the current one.
    case futureVersion = "future_version"
    /// A `get` asked for a past version the journal can no longer rebuild (its actions are
    /// missing).
    case versionUnavailable = "version_unavailable"
    /// Rebuilding the past version a `get` asked for would replay more actions than the daemon
    /// replays for one request; `message` says which versions are within the limit.
    case replayLimit = "replay_limit"
    /// The daemon is rebuilding as many past versions as it queues; try again shortly.
    case tooManyRebuilds = "too_many_rebuilds"
    /// The connecting user is not allowed to use this daemon. The server closes.
    case permissionDenied = "permission_denied"
    /// `hello` named another app than the one this daemon serves; the message names both.
    /// The server closes.
    case wrongApp = "wrong_app"
}
