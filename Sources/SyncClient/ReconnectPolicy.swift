/// How a client behaves when its connection to the daemon is lost.
///
/// With reconnection on, requests in flight and new ones wait while the client reconnects
/// with exponential backoff; once connected it sends them again (dispatches keep their
/// sequence numbers, so the daemon applies each once) and subscriptions resume by themselves.
public struct ReconnectPolicy: Sendable, Equatable {
    /// Whether a lost connection is made again at all.
    public var reconnects: Bool
    /// The wait before the first attempt; each failed attempt doubles it.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration
    /// How long to keep trying before failing everything with the last reason; `nil` is forever.
    public var giveUpAfter: Duration?

    /// A policy with every field given.
    public init(reconnects: Bool, initialDelay: Duration, maximumDelay: Duration, giveUpAfter: Duration?) {
        self.reconnects = reconnects
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.giveUpAfter = giveUpAfter
    }

    /// Reconnect forever: 50 ms, 100 ms, 200 ms … up to 2 s between attempts.
    public static let automatic = ReconnectPolicy(
        reconnects: true, initialDelay: .milliseconds(50), maximumDelay: .seconds(2), giveUpAfter: nil)

    /// Never reconnect: a lost connection fails every request and stream with `.connectionClosed`.
    public static let never = ReconnectPolicy(
        reconnects: false, initialDelay: .zero, maximumDelay: .zero, giveUpAfter: nil)

    /// Reconnect like `automatic`, but give up after `limit`.
    public static func giveUp(after limit: Duration) -> ReconnectPolicy {
        var policy = automatic
        policy.giveUpAfter = limit
        return policy
    }

    /// The wait before attempt `attempt` (from 1).
    func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) {
            delay *= 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}
