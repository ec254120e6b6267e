import CUV
import Glibc
import SyncEngine
import SyncJournal
import SyncStore
import Testing

@testable import SyncDaemon

/// A counter, the smallest app a daemon's shell can serve.
private enum CountApp: SyncApp {
    static let identity = AppIdentity(name: "count", version: "1")
    static let initialState = 0
    static let actions: [any Action<Int>.Type] = [Bump.self]
    static let viewModels: [any ViewModel<Int>.Type] = []
}

/// Adds one.
private struct Bump: Action {
    static let wireName = "bump"

    func update(_ state: inout Int) throws { state += 1 }
}

/// The shell stops at once when a commit may or may not be on disk: nothing it owns keeps the
/// loop alive, so the daemon returns to exit for recovery instead of hanging.
@Suite struct LoopServerStopTests {
    @Test func anUncertainCommitStopsTheLoopWithNoHandleLeftOpen() throws {
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        defer { loop.deallocate() }
        #expect(uv_loop_init(loop) == 0)
        let quiet = open("/dev/null", O_WRONLY)
        defer { close(quiet) }
        let logger = Logger(label: "test", minimumLevel: .error, forJournal: false, descriptor: quiet)
        let writer = JournalWriter(
            journal: FailingJournal(.uncertain(path: "/nowhere/journal.sqlite3", reason: "EIO")), loop: loop,
            durableVersion: 0, lastSnapshotVersion: 0, snapshots: .every(1000, from: .empty), inlineCommitLimit: 8,
            logger: logger)
        let engine = Engine<CountApp>(
            store: Store(state: 0), ledger: DispatchLedger(),
            configuration: EngineConfiguration(
                serverName: "countd/1", daemonName: "countd", appName: "count", hostName: "here",
                maximumFrameLength: 1 << 20),
            dependencies: StandardDependencies())
        let server = try LoopServer<CountApp>(
            engine: engine, loop: loop, writer: writer, peerPolicy: PeerPolicy(), dependencies: StandardDependencies(),
            logger: logger)
        var stopped = false
        server.onFatalError = { stopped = true }
        server.handle(Bump(), dispatchedBySideEffect: 1)
        // A bound against a hang only: a stopped loop has nothing left to run.
        var passes = 0
        while uv_run(loop, UV_RUN_NOWAIT) != 0, passes < 10_000 { passes += 1 }
        #expect(stopped && server.fatalStop != nil)
        #expect(uv_loop_alive(loop) == 0, "no handle of the shell keeps the loop alive")
        #expect(LoopShutdown.close(loop, logger: logger).isEmpty)
    }
}
