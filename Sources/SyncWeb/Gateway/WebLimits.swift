/// The bounds a gateway keeps per browser and in all, so that no browser can grow its memory
/// or flood the daemon.
public struct WebLimits: Sendable {
    /// The largest message a browser may send, in bytes; a larger one closes its connection
    /// (close code 1009, with a reason).
    public var maximumMessageBytes = 65_536
    /// Dispatches a browser may have waiting for the daemon; more are refused (`too_many_in_flight`).
    public var actionsInFlight = 16
    /// Dispatches a browser may send per second; more are refused (`rate_limited`).
    public var actionsPerSecond = 50
    /// WebSocket connections the gateway serves at once; more are refused at the upgrade.
    public var connections = 256
    /// Replies (acks and errors) queued for a browser that does not read them; past this the
    /// connection is closed. Updates do not count: only the newest model of each is ever kept.
    public var queuedReplies = 64
    /// Seconds of silence before the gateway pings a browser.
    public var pingSeconds: UInt16 = 15
    /// Seconds of silence (no pong either) after which a browser's connection is dropped.
    public var hangupSeconds: UInt16 = 40
    /// Versions of each model kept to resume from: a page holding an older one gets the whole model.
    public var resumableVersions = 32

    /// The defaults above.
    public init() {}
}
