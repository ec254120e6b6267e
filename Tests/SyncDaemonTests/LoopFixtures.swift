import CUV
import Foundation
import Glibc
import SyncEngine
import TestSupport

@testable import SyncDaemon

/// A private loop, and a logger writing journal-style lines (no timestamps) to a file.
final class LoopFixture {
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
final class SocketRecorder: ClientSocketDelegate {
    /// Why the socket ended, each time it said so.
    var lost: [CloseReason] = []
    /// How many writes completed.
    var writesCompleted = 0

    func socket(_ socket: ClientSocket, didRead bytes: UnsafeRawBufferPointer) {}
    func socketReachedEndOfInput(_ socket: ClientSocket) {}
    func socketDidWrite(_ socket: ClientSocket) { writesCompleted += 1 }
    func socket(_ socket: ClientSocket, failedWith reason: CloseReason) { lost.append(reason) }
}

/// A listener on a socket in a private directory, a real client connected to it, and the
/// daemon side of that client accepted into a reading `ClientSocket`.
final class ListenerWithOneClient {
    /// Where the accepted connection is kept (the listener's callback fills it in).
    private final class Accepted {
        var connection: ClientSocket?
    }

    let directory: String
    let path: String
    let recorder = SocketRecorder()
    let listener: UnixListener
    let client: WireClient
    private let accepted = Accepted()

    init(_ fixture: LoopFixture) throws {
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
