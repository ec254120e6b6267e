/// What `GatewayCore` wants done, performed in order by the server on its thread.
enum GatewayOutput: Equatable {
    /// Ask libwebsockets to call back when this browser's socket can take a message.
    case wantWritable(SessionID)
    /// Start following a view model in the daemon (once per feed).
    case follow(FeedKey)
    /// Dispatch an action for a browser's request.
    case dispatch(SessionID, requestID: Int64, action: String, payload: [UInt8])
}

/// What becomes of a browser's connection after one of its messages.
enum GatewayReception: Equatable {
    /// It stays; perform these.
    case keep([GatewayOutput])
    /// Close it with this WebSocket close code and reason.
    case close(code: UInt16, reason: String)
}

/// How the daemon answered a browser's dispatch.
enum DispatchAnswer: Equatable, Sendable {
    /// Applied at this version.
    case applied(version: UInt64)
    /// Refused with the daemon's (or the gateway's) code and message.
    case refused(code: String, message: String)
}
