import Glibc
import SyncProtocol
import SyncStore

/// How a daemon serves: where, with which limits, under which name.
public struct DaemonConfiguration: Sendable {
    /// The app served: its daemon's name in logs, errors, the lock file and systemd's socket.
    public var identity: AppIdentity
    /// The Unix socket path to listen on.
    public var socketPath: String
    /// The directory holding the journal and its lock (with a shared log: only the lock and
    /// the head this daemon last saw).
    public var dataDirectory: String
    /// A libpq connection string or URI: the daemon then appends to the action log it shares
    /// with every daemon on that database instead of its own SQLite journal. Never logged.
    public var postgres: String?
    /// The name recorded with each action this daemon accepts into a shared log.
    public var hostName = DaemonConfiguration.systemHostName()
    /// A snapshot of the state is saved every this many versions (and at clean shutdown), or
    /// further apart while snapshots follow the state's size.
    public var snapshotInterval: UInt64 = 1000
    /// Whether a multiple of `snapshotInterval` is let pass while the actions journaled since
    /// the last snapshot hold fewer bytes than four times that snapshot (at most a quarter of
    /// the replay limit apart; see `SnapshotSchedule`). The default; `--snapshot-interval`
    /// turns it off.
    public var snapshotsFollowStateSize = true
    /// A shared log is verified again from its first entry every this many seconds (after
    /// the end of the previous pass), so that a row changed under the running daemons stops
    /// them within this time plus two passes (one may just have passed the row).
    public var verifyIntervalSeconds = 30
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
    /// The most dispatched side effects one connection may have running at once; one more is
    /// refused with `too_many_side_effects`.
    public var maximumSideEffectsPerConnection = 8
    /// The most dispatched side effects running at once in the daemon, those of clients that
    /// left and are still ending included; one more is refused with `too_many_side_effects`.
    public var maximumSideEffects = 256
    /// Most actions replayed to answer one `get` of a past version (from the newest snapshot
    /// at or below it); a version needing more is refused with `replay_limit`.
    public var maximumReplayedActions = 10_000
    /// Most rebuilds of past versions running at once (each holds a thread-pool thread).
    public var maximumConcurrentRebuilds = 2
    /// Most rebuilds of past versions waiting for a turn; one more is `too_many_rebuilds`.
    public var maximumWaitingRebuilds = 64
    /// Who may connect.
    public var peerPolicy = PeerPolicy()
    /// Applied numbered dispatches remembered per client id (beyond the ones still waiting for
    /// their commit); an older resent one gets `stale_sequence`.
    public var ledgerWindowSize = 256
    /// Client ids whose numbered dispatches are remembered; past it, the one whose last applied
    /// dispatch is the oldest is forgotten.
    public var ledgerClientLimit = 10_000

    /// This machine's host name, `localhost` if it has none.
    public static func systemHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// A configuration of `identity`'s daemon with default limits.
    public init(identity: AppIdentity, socketPath: String, dataDirectory: String) {
        self.identity = identity
        self.socketPath = socketPath
        self.dataDirectory = dataDirectory
        serverName = identity.serverName
    }
}
