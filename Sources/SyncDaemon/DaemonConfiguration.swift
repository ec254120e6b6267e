import SyncProtocol

/// How a daemon serves: where, with which limits, under which name.
public struct DaemonConfiguration: Sendable {
    /// The Unix socket path to listen on.
    public var socketPath: String
    /// The directory holding the journal and its lock.
    public var dataDirectory: String
    /// A snapshot of the state is saved every this many versions (and at clean shutdown).
    public var snapshotInterval: UInt64 = 1000
    /// Commits of at most this many actions, started while no commit runs, are made on the
    /// loop thread (no thread hops; the loop waits for the fsync); larger ones, and all while
    /// commits follow each other, on the thread pool. 0: always on the pool.
    public var inlineCommitLimit = 8
    /// `name/version` sent in `welcome`.
    public var serverName: String
    /// Largest frame payload accepted from a client, in bytes.
    public var maximumFrameLength = WireProtocol.defaultMaximumFrameLength
    /// Queued output per client past which reading pauses and updates coalesce, in bytes.
    public var softQueueLimit = 256 * 1024
    /// Unwritten replies per client (acks, errors, pongs; updates coalesce instead) past which
    /// the client is disconnected, in bytes.
    public var hardQueueLimit = 16 * 1024 * 1024
    /// Most subscriptions one connection may hold.
    public var maximumSubscriptionsPerConnection = 256
    /// Who may connect.
    public var peerPolicy = PeerPolicy()
    /// Applied numbered dispatches remembered per client id (beyond the ones still waiting for
    /// their commit); an older resent one gets `stale_sequence`.
    public var ledgerWindowSize = 256
    /// Client ids whose numbered dispatches are remembered; past it, the one whose last applied
    /// dispatch is the oldest is forgotten.
    public var ledgerClientLimit = 10_000

    /// A configuration with default limits.
    public init(socketPath: String, dataDirectory: String, serverName: String) {
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        self.serverName = serverName
    }
}
