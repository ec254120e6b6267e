import CUV
import Glibc
import SyncEngine
import TestSupport
import Testing

@testable import SyncDaemon

/// `ClientSocket.write` on a private loop with a real client: a write the socket takes at once
/// is reported before `write` returns, a larger one finishes on the loop with every byte in
/// order, and a write to a client that went away fails at once with the reason, with no
/// completion after it.
@Suite(.blocking) struct ClientSocketWriteTests {
    @Test func aWriteTheSocketTakesWholeIsReportedBeforeWriteReturns() throws {
        try Self.withOneClient { fixture, pipes, connection in
            let bytes = Self.pattern(count: 1000)

            connection.write(Self.buffer(holding: bytes))

            #expect(pipes.recorder.writesCompleted == 1, "reported within write, without a turn of the loop")
            let received = try Self.receive(bytes.count, from: pipes.client.descriptor, turning: fixture) { true }
            Self.expectSame(received, bytes)
            #expect(pipes.recorder.lost.isEmpty)
        }
    }

    @Test func aWriteLargerThanTheSocketTakesEndsOnTheLoopWithEveryByteInOrder() throws {
        try Self.withOneClient { fixture, pipes, connection in
            // Far more than a Unix socket's buffers hold while nobody reads.
            let bytes = Self.pattern(count: 4 << 20)

            connection.write(Self.buffer(holding: bytes))

            #expect(pipes.recorder.writesCompleted == 0, "the rest waits for the client to read")
            let received = try Self.receive(bytes.count, from: pipes.client.descriptor, turning: fixture) {
                pipes.recorder.writesCompleted > 0
            }
            for _ in 0..<10 { uv_run(fixture.loop, UV_RUN_NOWAIT) }
            Self.expectSame(received, bytes)
            #expect(pipes.recorder.writesCompleted == 1, "one completion for the one write")
            #expect(pipes.recorder.lost.isEmpty)
        }
    }

    @Test func aWriteToAClientThatWentAwayFailsAtOnceWithTheReason() throws {
        try Self.withOneClient { fixture, pipes, connection in
            try #require(shutdown(pipes.client.descriptor, Int32(SHUT_RDWR)) == 0)

            let raisedSIGPIPE = Self.holdingSIGPIPE {
                connection.write(Self.buffer(holding: Self.pattern(count: 1000)))
            }

            #expect(raisedSIGPIPE, "the write reached the kernel within write")
            #expect(
                pipes.recorder.lost == [.clientWentAway(SocketError(code: UV_EPIPE.rawValue, name: "EPIPE"))],
                "told within write, without a turn of the loop")
            #expect(pipes.recorder.writesCompleted == 0)
            connection.close()
            for _ in 0..<10 { uv_run(fixture.loop, UV_RUN_NOWAIT) }
            #expect(pipes.recorder.lost.count == 1, "nothing more after the failure, nor after the close")
            #expect(pipes.recorder.writesCompleted == 0)
        }
    }

    /// Runs `body` with SIGPIPE blocked on this thread, then takes the SIGPIPE it raised, if
    /// any, before unblocking: the daemon ignores SIGPIPE for the whole process, which a test
    /// must not do to the process every test target shares. A SIGPIPE of a write goes to the
    /// writing thread. Whether one was raised.
    private static func holdingSIGPIPE(_ body: () -> Void) -> Bool {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        body()
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        var raised = false
        while sigtimedwait(&pipeOnly, nil, &now) == SIGPIPE { raised = true }
        return raised
    }

    /// Expects `received` to be `expected`, naming the first byte that differs rather than
    /// printing megabytes.
    private static func expectSame(_ received: [UInt8], _ expected: [UInt8]) {
        #expect(received.count == expected.count)
        let firstDifference = (0..<min(received.count, expected.count)).first { received[$0] != expected[$0] }
        #expect(firstDifference == nil, "the bytes differ from offset \(firstDifference ?? 0)")
    }

    /// `count` bytes that show a byte lost or out of order (251 is prime, so no power of two
    /// lines up with the pattern).
    private static func pattern(count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    /// A buffer holding `bytes`, as the shell hands `write` one (the socket frees it).
    private static func buffer(holding bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        buffer.copyBytes(from: bytes)
        return buffer
    }

    /// Reads `count` bytes from the client's `descriptor` without blocking, turning the loop
    /// between reads, until they are all in and `done` holds. The deadline only stops a broken
    /// test from hanging.
    private static func receive(
        _ count: Int, from descriptor: Int32, turning fixture: LoopFixture, until done: () -> Bool
    ) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = ContinuousClock.now + .seconds(60)
        while received.count < count || !done() {
            guard ContinuousClock.now < deadline else {
                throw TestFailure(
                    received.count < count
                        ? "read \(received.count) of \(count) bytes before the deadline"
                        : "read every byte, but the write did not end before the deadline")
            }
            uv_run(fixture.loop, UV_RUN_NOWAIT)
            let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got > 0 {
                received += chunk[..<got]
            } else if got == 0 {
                throw TestFailure("the daemon's side closed after \(received.count) of \(count) bytes")
            } else if errno != EAGAIN && errno != EINTR {
                throw TestFailure("recv failed: \(String(cString: strerror(errno)))")
            }
        }
        return received
    }

    /// Runs `body` with a private loop, a listener with one client connected and the daemon's
    /// side of that client, then closes them all whatever `body` did.
    private static func withOneClient(
        _ body: (LoopFixture, ListenerWithOneClient, ClientSocket) throws -> Void
    ) throws {
        let fixture = try LoopFixture()
        let pipes = try ListenerWithOneClient(fixture)
        defer { closeEverything(pipes, fixture) }
        try body(fixture, pipes, try #require(pipes.connection))
    }

    /// Closes the listener and the connection, and ends the loop with no handle left open.
    private static func closeEverything(_ pipes: ListenerWithOneClient, _ fixture: LoopFixture) {
        pipes.listener.close()
        pipes.connection?.close()
        pipes.dropConnection()
        #expect(LoopShutdown.close(fixture.loop, logger: fixture.logger).isEmpty)
        #expect(fixture.log.isEmpty, "\(fixture.log)")
    }
}
