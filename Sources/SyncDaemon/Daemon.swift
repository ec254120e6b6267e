import CUV
import Glibc
import SyncProtocol
import SyncStore

/// The daemon runtime for any `SyncApp`: one libuv loop thread owns the store and every
/// connection, so the hot path takes no locks.
///
/// `run()` prepares the socket, listens, starts the side effects, and serves until SIGINT or
/// SIGTERM; then it stops accepting, closes every client, removes the socket file and returns.
public final class Daemon<App: SyncApp> {
    private let configuration: DaemonConfiguration
    private let sideEffects: [any SideEffect<App.State>]
    private let log: any ActionLog<App.State>
    private let logger: Logger

    /// A daemon serving `App` as `configuration` says, running `sideEffects` while it serves.
    public init(
        configuration: DaemonConfiguration,
        sideEffects: [any SideEffect<App.State>] = [],
        log: any ActionLog<App.State> = VolatileLog<App.State>(),
        logger: Logger
    ) {
        self.configuration = configuration
        self.sideEffects = sideEffects
        self.log = log
        self.logger = logger
    }

    /// Serves until SIGINT or SIGTERM. Throws if it cannot start.
    public func run() throws(DaemonError) {
        Self.resetSignalDisposition()
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        defer { loop.deallocate() }
        try DaemonError.check(uv_loop_init(loop), "initialising", "the event loop")
        defer { Self.closeLoop(loop) }

        try SocketFile.prepare(configuration.socketPath)
        let server = try Server<App>(loop: loop, store: Store(state: App.initialState), log: log, configuration: configuration, logger: logger)
        let listener: UnixListener
        do {
            listener = try UnixListener(loop: loop, path: configuration.socketPath) { [unowned server] stream in
                server.accept(from: stream)
            }
        } catch {
            server.shutDown()
            throw error
        }
        let effects = try SideEffectRunner<App.State>(loop: loop, effects: sideEffects, mirror: server.mirror) { [unowned server] action, reply in
            server.apply(action, requester: .sideEffect(reply))
        }

        var signals: [LoopHandle<uv_signal_t>] = []
        let shutDown = { [logger] (name: String) in
            logger.log("\(name) received; shutting down with \(server.connectionCount) client(s) at version \(server.publishedVersion)")
            listener.close()
            effects.stop()
            server.shutDown()
            for signal in signals { signal.close() }
        }
        do {
            signals.append(try .signal(SIGINT, loop: loop) { shutDown("SIGINT") })
            signals.append(try .signal(SIGTERM, loop: loop) { shutDown("SIGTERM") })
        } catch {
            shutDown("start-up failure")
            throw error
        }
        logger.log("listening on \(configuration.socketPath) (protocol \(WireProtocol.version), max frame \(configuration.maximumFrameLength) bytes)")
        effects.start()
        uv_run(loop, UV_RUN_DEFAULT)
        logger.log("stopped")
    }

    /// Undoes what a parent may have left: blocked signals (a test runner's SIGTERM mask would
    /// make the daemon unkillable) and SIGPIPE, which a write to a vanished client must not raise.
    private static func resetSignalDisposition() {
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs the loop until every closing handle has had its close callback, then closes it.
    private static func closeLoop(_ loop: UnsafeMutablePointer<uv_loop_t>) {
        uv_walk(loop, { handle, _ in
            if uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        }, nil)
        uv_run(loop, UV_RUN_DEFAULT)
        uv_loop_close(loop)
    }
}
