import SyncClient

extension ReconnectPolicy {
    /// How long a one-shot command waits for a daemon that went away mid-command (a restart)
    /// before it gives up: 10 seconds.
    public static let oneShot = ReconnectPolicy.giveUp(after: .seconds(10))
}
