import CUV
import Glibc
import SyncJournal
import SyncProtocol
import SyncStore

/// The daemon runtime for any `SyncApp`: one libuv loop thread owns the store and every
/// connection, so the hot path takes no locks.
///
/// `run()` locks the data directory, recovers the state from the journal, prepares the socket,
/// listens, starts the side effects, and serves until SIGINT or SIGTERM; then it stops
/// accepting, closes every client, finishes the commit in flight, saves a snapshot, removes the
/// socket file and returns.
public final class Daemon<App: SyncApp> {
    private let configuration: DaemonConfiguration
    private let sideEffects: [any SideEffect<App.State, App.Dependencies>]
    private let dependencies: App.Dependencies
    private let logger: Logger

    /// A daemon serving `App` as `configuration` says, running `sideEffects` while it serves;
    /// acceptance, those side effects and the ones clients dispatch are given `dependencies`.
    public init(
        configuration: DaemonConfiguration, dependencies: App.Dependencies,
        sideEffects: [any SideEffect<App.State, App.Dependencies>] = [],
        logger: Logger
    ) {
        self.configuration = configuration
        self.dependencies = dependencies
        self.sideEffects = sideEffects
        self.logger = logger
    }

    /// Serves until SIGINT or SIGTERM. Throws if it cannot start.
    public func run() throws(DaemonError) {
        Self.resetSignalDisposition()
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        defer { loop.deallocate() }
        try DaemonError.check(uv_loop_init(loop), "initialising", "the event loop")
        defer { Self.closeLoop(loop, logger: logger) }

        let directory: DataDirectory
        do {
            directory = try DataDirectory(
                path: configuration.dataDirectory, lockName: configuration.identity.lockFileName,
                owner: configuration.identity.daemonName)
        } catch {
            throw .dataDirectory(error)
        }
        let journal = try JournalOpener.open(configuration, in: directory, logger: logger)
        let started = Self.monotonicMilliseconds()
        let emptyLedger = DispatchLedger(
            windowSize: configuration.ledgerWindowSize, clientLimit: configuration.ledgerClientLimit)
        let recovered = try Recovery<App>.recover(from: journal, path: journal.location, emptyLedger: emptyLedger)
        try JournalOpener.prepareForWriting(journal, logger: logger)
        logger.log(
            .info,
            "recovered version \(recovered.store.version) from \(journal.location) (snapshot at \(recovered.snapshotVersion), \(recovered.replayedCount.counting("action")) replayed, \(recovered.ledger.clientCount.counting("client id")) in the dispatch ledger) in \(Self.monotonicMilliseconds() - started) ms"
        )

        let activated = try SystemdActivation.listeningDescriptor(named: configuration.identity)
        if activated == nil, try SocketFile.prepare(configuration.socketPath) == .replacedStaleSocket {
            logger.log(
                .warning,
                "replaced the stale socket \(configuration.socketPath) (left by a daemon that did not stop cleanly)")
        }
        let notifier = SystemdNotifier()
        let writer = JournalWriter<App.State>(
            journal: journal, loop: loop, durableVersion: recovered.store.version,
            lastSnapshotVersion: recovered.snapshotVersion,
            snapshotInterval: configuration.snapshotInterval,
            // A round trip to a database server must not stall the loop.
            inlineCommitLimit: journal.isShared ? 0 : configuration.inlineCommitLimit, logger: logger)
        let server = try Server<App>(
            loop: loop, store: recovered.store, ledger: recovered.ledger, writer: writer, configuration: configuration,
            dependencies: dependencies, logger: logger)
        var effects: SideEffectRunner<App.State, App.Dependencies>?
        var watcher: SharedLogWatcher?
        var verifier: SharedLogVerifier?
        var listener: UnixListener?
        var timers: [LoopHandle<uv_timer_t>] = []
        var signals: [LoopHandle<uv_signal_t>] = []
        let status = {
            "serving \(server.connectionCount) client\(server.connectionCount == 1 ? "" : "s") at version \(server.publishedVersion)"
        }
        // Stops accepting and starts the graceful shutdown; also releases whatever exists when
        // a start fails halfway.
        let shutDown = {
            listener?.close()
            watcher?.stop()
            verifier?.stop()
            effects?.stop()
            server.stopSideEffects()
            for timer in timers { timer.close() }
            for signal in signals { signal.close() }
            server.beginShutdown()
        }
        let stopOnSignal = { [logger] (name: String) in
            logger.log(.info, "\(name) received; shutting down, \(status())")
            notifier?.send("STOPPING=1\nSTATUS=shutting down")
            shutDown()
        }
        do {
            effects = try SideEffectRunner<App.State, App.Dependencies>(
                loop: loop, effects: sideEffects, mirror: server.mirror, dependencies: dependencies
            ) { [unowned server] action, reply in
                server.apply(action, requester: .sideEffect(reply))
            }
            // Signals are watched before the socket listens: a client may connect (and a test
            // or a supervisor send a signal) as soon as it does, and an unwatched SIGHUP would
            // end the daemon.
            signals.append(try .signal(SIGINT, loop: loop) { stopOnSignal("SIGINT") })
            signals.append(try .signal(SIGTERM, loop: loop) { stopOnSignal("SIGTERM") })
            signals.append(
                try .signal(SIGHUP, loop: loop) { [logger] in
                    logger.log(.info, "SIGHUP received; nothing to reload, \(status())")
                })
            if let conninfo = configuration.postgres {
                watcher = try SharedLogWatcher(
                    loop: loop, conninfo: conninfo,
                    schema: SharedLogSchema(daemonName: configuration.identity.daemonName),
                    applicationName: configuration.serverName, wantsLeadership: !sideEffects.isEmpty
                ) { [unowned server, logger] observation in
                    Self.noteChanges(from: server.sharedLog, to: observation, writer: writer, logger: logger)
                    server.sharedLogDidChange(observation)
                    // The side effects that act for every host run on the leader only.
                    if observation.isLeader { effects?.start() } else { effects?.pause() }
                }
            }
            if let conninfo = configuration.postgres, let shared = journal as? PostgresJournal {
                verifier = try SharedLogVerifier(
                    loop: loop, conninfo: conninfo, schema: shared.schema, applicationName: configuration.serverName,
                    host: shared.host, intervalSeconds: configuration.verifyIntervalSeconds,
                    verifiedHead: shared.verifiedHead
                ) { [unowned server] audit in
                    server.sharedLogWasVerified(audit)
                }
            }
            listener = try UnixListener(
                loop: loop, source: activated.map { .descriptor($0) } ?? .path(configuration.socketPath), logger: logger
            ) { [unowned server] stream in
                server.accept(from: stream)
            }
            if let notifier {
                // Runs on the loop: a loop that is stuck stops the pings, and systemd restarts it.
                let interval = SystemdNotifier.watchdogInterval()
                timers.append(
                    try .timer(loop: loop, after: 0, repeat: min(interval ?? 1000, 1000)) {
                        if interval != nil { notifier.send("WATCHDOG=1") }
                        notifier.status(status())
                    })
            }
        } catch {
            shutDown()
            throw error
        }
        logger.log(
            .info,
            "listening on \(listener?.path ?? configuration.socketPath) (protocol \(WireProtocol.version), max frame \(configuration.maximumFrameLength) bytes)"
        )
        notifier?.send("READY=1\nSTATUS=\(status())")
        if configuration.postgres == nil { effects?.start() }
        server.onFatalError = { shutDown() }
        uv_run(loop, UV_RUN_DEFAULT)
        // The hook holds `shutDown`, which holds the server: let go, so that the server, its
        // writer and the journal are released (SQLite checkpoints its WAL on close).
        server.onFatalError = {}
        if let fatal = server.fatalStop { throw fatal }
        writer.finish(
            remaining: server.uncommitted, finalState: server.store.state, ledger: server.ledger,
            version: server.store.version)
        if writer.commitCount > 0 {
            let average = Double(writer.committedActionCount) / Double(writer.commitCount)
            let overtaken = journal.isShared ? ", \(writer.overtakenCount) overtaken by other daemons" : ""
            logger.log(
                .info,
                "stopped at version \(writer.durableVersion); \(writer.committedActionCount.counting("action")) in \(writer.commitCount.counting("commit")) (\(average.formatted1) per commit, \(writer.inlineCommitCount) on the loop thread\(overtaken))"
            )
        } else {
            logger.log(.info, "stopped at version \(writer.durableVersion)")
        }
    }

    /// Notes the database going away (the writer logs it, and its return once a commit or a
    /// read works again), and logs the leader lock changing hands.
    private static func noteChanges(
        from old: SharedLogObservation?, to new: SharedLogObservation, writer: JournalWriter<App.State>,
        logger: Logger
    ) {
        let old = old ?? .unknown
        if old.isReachable && !new.isReachable { writer.sharedLogBecameUnreachable(new.problem ?? "no answer") }
        if old.isLeader != new.isLeader {
            logger.log(
                .info,
                new.isLeader
                    ? "this daemon now runs the side effects for every host (it holds the leader lock)"
                    : "this daemon no longer holds the leader lock; its side effects stop")
        }
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Undoes what a parent may have left: blocked signals (a test runner's SIGTERM mask would
    /// make the daemon unkillable) and SIGPIPE, which a write to a vanished client must not raise.
    private static func resetSignalDisposition() {
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit must fail the commit, not kill the daemon.
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Runs the loop until every closing handle has had its close callback, then closes it;
    /// a handle still open here is a bug, logged by its type and closed by its owner.
    private static func closeLoop(_ loop: UnsafeMutablePointer<uv_loop_t>, logger: Logger) {
        LoopShutdown.close(loop, logger: logger)
    }
}

extension Int {
    /// `1 action`, `2 actions`.
    func counting(_ noun: String) -> String { "\(self) \(noun)\(self == 1 ? "" : "s")" }
}

extension Double {
    /// The value with one decimal.
    var formatted1: String {
        let tenths = Int((self * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
