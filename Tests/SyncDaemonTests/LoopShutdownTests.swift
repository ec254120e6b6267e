import CUV
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SyncDaemon

/// The end of an event loop, on a private loop: handles left open are logged as bugs by type
/// (in the words the integration harness looks for) and closed; a loop whose owners closed
/// everything logs nothing.
@Suite struct LoopShutdownTests {
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
}
