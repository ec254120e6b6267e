import CUV
import Glibc
import SyncEngine
import SyncJournal
import SyncProtocol
import SyncStore

/// The daemon runtime for any `SyncApp`: one libuv loop thread owns the store and every
/// connection, so the hot path takes no locks.
///
/// `run()` locks the data directory, recovers the state from the journal, prepares the socket,
/// starts its services in order (`startServices`) and serves until SIGINT or SIGTERM; then it
/// stops them in reverse (the listener first, the engine's graceful shutdown last), finishes
/// the commit in flight, saves a snapshot, removes the socket file and returns. The protocol
/// itself is the `Engine`'s; `LoopServer` carries it out on the loop.
public final class Daemon<App: SyncApp> {
    private let configuration: DaemonConfiguration
    private let sideEffects: [any SideEffect<App.State, App.Dependencies>]
    private let schedules: [any Schedule<App.State>]
    private let dependencies: App.Dependencies
    private let logger: Logger

    /// A daemon serving `App` as `configuration` says, running `sideEffects` while it serves
    /// and dispatching what `schedules` say is due; acceptance, those side effects and the ones
    /// clients dispatch are given `dependencies`.
    public init(
        configuration: DaemonConfiguration, dependencies: App.Dependencies,
        sideEffects: [any SideEffect<App.State, App.Dependencies>] = [],
        schedules: [any Schedule<App.State>] = [],
        logger: Logger
    ) {
        self.configuration = configuration
        self.dependencies = dependencies
        self.sideEffects = sideEffects
        self.schedules = schedules
        self.logger = logger
    }

    /// Serves until SIGINT or SIGTERM. Throws if it cannot start.
    public func run() throws(DaemonError) {
        Self.resetSignalDisposition()
        MemoryTuning.configure()
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
        let writer = JournalWriter(
            journal: journal, loop: loop, durableVersion: recovered.store.version,
            lastSnapshotVersion: recovered.snapshotVersion,
            snapshots: configuration.snapshotSchedule(from: recovered.snapshotOrigin),
            // A round trip to a database server must not stall the loop.
            inlineCommitLimit: journal.isShared ? 0 : configuration.inlineCommitLimit, logger: logger)
        var engineConfiguration = configuration.engineConfiguration
        engineConfiguration.isShared = journal.isShared
        engineConfiguration.journalLocation = journal.location
        let engine = Engine<App>(
            store: recovered.store, ledger: recovered.ledger, configuration: engineConfiguration,
            dependencies: dependencies, schedules: schedules)
        let server = try LoopServer<App>(
            engine: engine, loop: loop, writer: writer, peerPolicy: configuration.peerPolicy,
            dependencies: dependencies, logger: logger)
        let services = ServiceGroup()
        do {
            try startServices(
                services, server: server, loop: loop, journal: journal, activated: activated, notifier: notifier)
        } catch {
            services.stopAll()
            throw error
        }
        server.onFatalError = { [weak services] in services?.stopAll() }
        server.start()
        uv_run(loop, UV_RUN_DEFAULT)
        if let fatal = server.fatalStop { throw fatal }
        let applied = engine.appliedStore
        writer.finish(
            remaining: engine.uncommitted, finalState: StateEncoding(applied.state), ledger: engine.ledger,
            version: applied.version)
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

    /// Starts the daemon's parts in order, each recorded in `services` so that a shutdown (or a
    /// part that fails to start) stops them in reverse: the engine's graceful shutdown, the
    /// app's side effects, the signal watchers (before the socket listens: a client may connect,
    /// and a test or a supervisor send a signal, as soon as it does, and an unwatched SIGHUP
    /// would end the daemon), a shared log's watcher and verifier, the listener, the watchdog.
    private func startServices(
        _ services: ServiceGroup, server: LoopServer<App>, loop: UnsafeMutablePointer<uv_loop_t>,
        journal: any Journal, activated: Int32?, notifier: SystemdNotifier?
    ) throws(DaemonError) {
        let logger = logger
        let status = {
            "serving \(server.engine.connectionCount) client\(server.engine.connectionCount == 1 ? "" : "s") at version \(server.engine.publishedVersion)"
        }
        services.started("the engine") { server.beginShutdown() }

        let effects = try SideEffectRunner<App.State, App.Dependencies>(
            loop: loop, effects: sideEffects, mirror: server.mirror, dependencies: dependencies
        ) { [unowned server] action, reply in
            server.sideEffectDispatched(action, reply: reply)
        }
        services.started("the app's side effects") { effects.stop() }

        let stopOnSignal = { [weak services] (name: String) in
            logger.log(.info, "\(name) received; shutting down, \(status())")
            notifier?.send("STOPPING=1\nSTATUS=shutting down")
            services?.stopAll()
        }
        let signals: [LoopHandle<uv_signal_t>] = [
            try .signal(SIGINT, loop: loop) { stopOnSignal("SIGINT") },
            try .signal(SIGTERM, loop: loop) { stopOnSignal("SIGTERM") },
            try .signal(SIGHUP, loop: loop) { logger.log(.info, "SIGHUP received; nothing to reload, \(status())") },
        ]
        services.started("the signal watchers") { for signal in signals { signal.close() } }

        if let conninfo = configuration.postgres {
            let watcher = try SharedLogWatcher(
                loop: loop, conninfo: conninfo,
                schema: SharedLogSchema(daemonName: configuration.identity.daemonName),
                applicationName: configuration.serverName, wantsLeadership: !sideEffects.isEmpty || !schedules.isEmpty
            ) { [unowned server, logger] observation in
                Self.noteChanges(from: server.engine.sharedLog, to: observation, writer: server.writer, logger: logger)
                server.feed(.sharedLogObserved(observation))
                // The side effects that act for every host run on the leader only (so do the
                // schedules: the engine hears of the leadership through the observation).
                if observation.isLeader { effects.start() } else { effects.pause() }
            }
            services.started("the shared log's watcher") { watcher.stop() }
        }
        if let conninfo = configuration.postgres, let shared = journal as? PostgresJournal {
            let verifier = try SharedLogVerifier(
                loop: loop, conninfo: conninfo, schema: shared.schema, applicationName: configuration.serverName,
                host: shared.host, intervalSeconds: configuration.verifyIntervalSeconds,
                verifiedHead: shared.verifiedHead
            ) { [unowned server] audit in
                server.feed(.sharedLogVerified(audit))
            }
            services.started("the shared log's verifier") { verifier.stop() }
        }
        let listener = try UnixListener(
            loop: loop, source: activated.map { .descriptor($0) } ?? .path(configuration.socketPath), logger: logger
        ) { [unowned server] stream in
            server.accept(from: stream)
        }
        services.started("the listener") { listener.close() }
        if let notifier {
            // Runs on the loop: a loop that is stuck stops the pings, and systemd restarts it.
            let interval = SystemdNotifier.watchdogInterval()
            let watchdog = try LoopHandle<uv_timer_t>.timer(loop: loop, after: 0, repeat: min(interval ?? 1000, 1000)) {
                if interval != nil { notifier.send("WATCHDOG=1") }
                notifier.status(status())
            }
            services.started("the watchdog") { watchdog.close() }
        }
        logger.log(
            .info,
            "listening on \(listener.path) (protocol \(WireProtocol.version), max frame \(configuration.maximumFrameLength) bytes)"
        )
        notifier?.send("READY=1\nSTATUS=\(status())")
        if configuration.postgres == nil { effects.start() }
    }

    /// Notes the database going away (the writer logs it, and its return once a commit or a
    /// read works again), and logs the leader lock changing hands.
    private static func noteChanges(
        from old: SharedLogObservation?, to new: SharedLogObservation, writer: JournalWriter,
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

extension Double {
    /// The value with one decimal.
    var formatted1: String {
        let tenths = Int((self * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
