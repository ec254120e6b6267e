/// One browser's WebSocket connection as the gateway keeps it: what it follows and the version
/// of each model it holds, the replies waiting for its socket, its dispatches in flight, and
/// the message it is sending in pieces.
struct BrowserSession {
    /// One subscription of the page.
    struct Subscription {
        /// The daemon subscription it reads from.
        let feed: FeedKey
        /// The version of the model the page holds (`nil`: none yet).
        var held: UInt64?
    }

    /// Subscriptions by the page's key.
    var subscriptions: [String: Subscription] = [:]
    /// Replies (hello, acks, errors, daemon notices) not yet written, oldest first.
    var replies: [[UInt8]] = []
    /// Dispatches sent to the daemon and not yet answered.
    var inFlight = 0
    /// The dispatches of the current second.
    var rate: RateWindow
    /// The pieces of a message not yet complete.
    var partial: [UInt8] = []

    /// A new session allowing `actionsPerSecond` dispatches a second.
    init(actionsPerSecond: Int) {
        rate = RateWindow(limit: actionsPerSecond)
    }
}
