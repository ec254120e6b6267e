import CUV
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
    @Test func handlesLeftOpenAreLoggedByTypeAndClosedByTheirOwners() throws {
        let fixture = try LoopFixture()
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
        let fixture = try LoopFixture()
        let timer = try LoopHandle<uv_timer_t>.timer(loop: fixture.loop, after: 60_000) {}
        let wakeUp = try LoopHandle<uv_async_t>.wakeUp(loop: fixture.loop) {}
        timer.close()
        wakeUp.close()

        #expect(LoopShutdown.close(fixture.loop, logger: fixture.logger).isEmpty)
        #expect(fixture.log.isEmpty, "\(fixture.log)")
        try DaemonHarness.requireNoLeftoverHandles(in: fixture.log)
    }

    @Test func pipesLeftOpenAreLoggedAndClosedThroughTheirListenerAndConnection() throws {
        let fixture = try LoopFixture()
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
        let fixture = try LoopFixture()
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
