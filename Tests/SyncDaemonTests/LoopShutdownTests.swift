import CUV
import Foundation
import Glibc
import SyncEngine
import SyncProtocol
import TestSupport
import Testing

@testable import SyncDaemon

/// The end of an event loop, on a private loop: handles left open are logged as bugs by type
/// (in the words the integration harness looks for) and closed, pipes through their listener or
/// connection; a loop whose owners closed everything logs nothing.
@Suite(.blocking) struct LoopShutdownTests {
    /// A private loop, and a logger writing journal-style lines (no timestamps) to a file.
    private final class Fixture {
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        let logPath: String
        let logger: Logger
        private let logDescriptor: Int32

        init() throws {
            let directory = try makeTemporaryDirectory()
            logPath = directory + "/log"
            logDescriptor = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            logger = Logger(label: "test", minimumLevel: .debug, forJournal: true, descriptor: logDescriptor)
            guard logDescriptor >= 0, uv_loop_init(loop) == 0 else {
                throw TestFailure("cannot set up a loop and its log")
            }
        }

        deinit {
            close(logDescriptor)
            loop.deallocate()
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: logPath).deletingLastPathComponent().path)
        }

        /// What was logged.
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    }

    /// What the sockets of `ListenerWithOneClient` tell their owner.
    private final class Recorder: ClientSocketDelegate {
        var lost: [CloseReason] = []

        func socket(_ socket: ClientSocket, didRead bytes: UnsafeRawBufferPointer) {}
        func socketReachedEndOfInput(_ socket: ClientSocket) {}
        func socketDidWrite(_ socket: ClientSocket) {}
        func socket(_ socket: ClientSocket, failedWith reason: CloseReason) { lost.append(reason) }
    }

    /// A listener on a socket in a private directory, a real client connected to it, and the
    /// daemon side of that client accepted into a reading `ClientSocket`.
    private final class ListenerWithOneClient {
        /// Where the accepted connection is kept (the listener's callback fills it in).
        private final class Accepted {
            var connection: ClientSocket?
        }

        let directory: String
        let path: String
        let recorder = Recorder()
        let listener: UnixListener
        let client: WireClient
        private let accepted = Accepted()

        init(_ fixture: Fixture) throws {
            directory = try makeTemporaryDirectory()
            path = directory + "/socket"
            let readBuffer = ReadBuffer(byteCount: ClientSocket.readChunkSize)
            listener = try UnixListener(loop: fixture.loop, source: .path(path), logger: fixture.logger) {
                [recorder, accepted] stream in
                accepted.connection = try? ClientSocket(
                    id: 1, loop: fixture.loop, acceptingFrom: stream, readBuffer: readBuffer)
                accepted.connection?.delegate = recorder
                accepted.connection?.startReading()
            }
            client = try WireClient(path: path)
            // A deadline against hanging only: the client is already in the backlog.
            let deadline = ContinuousClock.now + .seconds(30)
            while accepted.connection == nil, ContinuousClock.now < deadline { uv_run(fixture.loop, UV_RUN_NOWAIT) }
            guard accepted.connection != nil else { throw TestFailure("the client was not accepted") }
        }

        /// The daemon side of the client, until `dropConnection()`.
        var connection: ClientSocket? { accepted.connection }

        /// Lets go of the connection: only its handle keeps it alive now.
        func dropConnection() { accepted.connection = nil }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func handlesLeftOpenAreLoggedByTypeAndClosedByTheirOwners() throws {
        let fixture = try Fixture()
        let timer = try LoopHandle<uv_timer_t>.timer(loop: fixture.loop, after: 60_000) {}
        let wakeUp = try LoopHandle<uv_async_t>.wakeUp(loop: fixture.loop) {}
        let closedInTime = try LoopHandle<uv_timer_t>.timer(loop: fixture.loop, after: 60_000) {}
        closedInTime.close()
        // A handle without an owner object: closed by libuv alone.
        let bare = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        defer { bare.deallocate() }
        #expect(uv_timer_init(fixture.loop, bare) == 0)
        cuv_timer_as_handle(bare).pointee.data = nil

        let leftovers = LoopShutdown.close(fixture.loop, logger: fixture.logger)

        #expect(leftovers == ["timer", "async", "timer"])
        #expect(timer.isClosed && wakeUp.isClosed, "each owner closed its own handle")
        #expect(
            fixture.log
                == [
                    "<3>bug: libuv handle left open at shutdown: timer\n",
                    "<3>bug: libuv handle left open at shutdown: async\n",
                    "<3>bug: libuv handle left open at shutdown: timer\n",
                ].joined(), "no other line: the loop closed")
        // The check every integration test that stops a daemon makes finds them.
        #expect(DaemonHarness.leftoverHandles(in: fixture.log) == ["timer", "async", "timer"])
        #expect(throws: TestFailure.self) { try DaemonHarness.requireNoLeftoverHandles(in: fixture.log) }
    }

    @Test func aLoopWhoseOwnersClosedEverythingSaysNothing() throws {
        let fixture = try Fixture()
        let timer = try LoopHandle<uv_timer_t>.timer(loop: fixture.loop, after: 60_000) {}
        let wakeUp = try LoopHandle<uv_async_t>.wakeUp(loop: fixture.loop) {}
        timer.close()
        wakeUp.close()

        #expect(LoopShutdown.close(fixture.loop, logger: fixture.logger).isEmpty)
        #expect(fixture.log.isEmpty, "\(fixture.log)")
        try DaemonHarness.requireNoLeftoverHandles(in: fixture.log)
    }

    @Test func pipesLeftOpenAreLoggedAndClosedThroughTheirListenerAndConnection() throws {
        let fixture = try Fixture()
        let pipes = try ListenerWithOneClient(fixture)

        let leftovers = LoopShutdown.close(fixture.loop, logger: fixture.logger)

        #expect(leftovers == ["pipe", "pipe"])
        #expect(fixture.log == String(repeating: "<3>bug: libuv handle left open at shutdown: pipe\n", count: 2))
        #expect(pipes.recorder.lost == [.loopEnded], "the socket told its owner, once, why")
        #expect(access(pipes.path, F_OK) != 0, "the listener removed its socket file")
        #expect(try pipes.client.readsEndOfStream(), "the client's socket was closed")
        #expect(throws: TestFailure.self) { try DaemonHarness.requireNoLeftoverHandles(in: fixture.log) }
    }

    @Test func pipesTheirOwnersClosedSayNothingAndLiveUntilTheirCloseCallback() throws {
        let fixture = try Fixture()
        let pipes = try ListenerWithOneClient(fixture)
        weak let connection = pipes.connection
        pipes.listener.close()
        connection?.close()
        pipes.dropConnection()
        #expect(connection != nil, "its handle keeps it until the close callback")

        #expect(LoopShutdown.close(fixture.loop, logger: fixture.logger).isEmpty)
        #expect(fixture.log.isEmpty, "\(fixture.log)")
        #expect(connection == nil, "released in the close callback")
        #expect(pipes.recorder.lost.isEmpty, "closed by its owner, it reports nothing")
        #expect(access(pipes.path, F_OK) != 0)
        #expect(try pipes.client.readsEndOfStream())
    }
}
