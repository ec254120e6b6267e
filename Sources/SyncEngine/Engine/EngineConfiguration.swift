/// What the engine is told of the daemon it runs in: its names, its journal and its limits.
/// The daemon's `DaemonConfiguration` makes one; tests make their own.
package struct EngineConfiguration: Sendable {
    /// `name/version` sent in `welcome`.
    package var serverName: String
    /// The daemon's name, as a refusal naming it says it (`todod`).
    package var daemonName: String
    /// The app's name, as `hello` and `welcome` carry it (`todo`).
    package var appName: String
    /// The name recorded with each action accepted into a shared log.
    package var hostName: String
    /// Whether the journal is a log several daemons share.
    package var isShared = false
    /// Where the journal is, for `welcome`'s log status (a path, or a database's name).
    package var journalLocation = ""
    /// Largest frame payload accepted from a client, in bytes.
    package var maximumFrameLength: Int
    /// Queued output per client past which reading pauses and updates coalesce, in bytes.
    package var softQueueLimit = 256 * 1024
    /// Unwritten replies per client past which the client is disconnected, in bytes.
    package var hardQueueLimit = 16 * 1024 * 1024
    /// Most subscriptions one connection may hold.
    package var maximumSubscriptionsPerConnection = 256
    /// Most dispatched side effects one connection may have running at once.
    package var maximumSideEffectsPerConnection = 8
    /// Most dispatched side effects running at once in the daemon.
    package var maximumSideEffects = 256
    /// Most actions replayed to answer one `get` of a past version.
    package var maximumReplayedActions = 10_000
    /// Most rebuilds of past versions running at once.
    package var maximumConcurrentRebuilds = 2
    /// Most rebuilds of past versions waiting for a turn.
    package var maximumWaitingRebuilds = 64
    /// How long clients get to read their `bye` before they are cut off, in milliseconds.
    package var byeDeadlineMilliseconds: UInt64 = 2000

    /// A configuration with default limits.
    package init(serverName: String, daemonName: String, appName: String, hostName: String, maximumFrameLength: Int) {
        self.serverName = serverName
        self.daemonName = daemonName
        self.appName = appName
        self.hostName = hostName
        self.maximumFrameLength = maximumFrameLength
    }
}
