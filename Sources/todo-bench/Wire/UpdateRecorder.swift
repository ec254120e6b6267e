import SyncLock
import SyncProtocol

/// A raw subscriber read by a thread of its own, noting when each update arrives and which
/// version it shows (read from the frame's tail, see `UpdateFrame`), until `finish()`.
final class UpdateRecorder {
    private let socket: FrameSocket
    private let arrivals = Locked([Arrival]())
    private let failure = Locked<String?>(nil)
    private let reader: BenchThread

    /// Subscribes to `viewModel` (no parameters) on `daemon` and starts reading; the first
    /// update (the model at subscription) is recorded too.
    init(daemon: TodoDaemon, viewModel: String) throws(BenchError) {
        let socket = try daemon.rawConnection()
        self.socket = socket
        try socket.send(
            payload: FrameSocket.encode {
                try SubscribeRequest(id: 2, viewModel: viewModel).encoded(params: [String: String]())
            })
        let reply = try socket.nextReply()
        guard case .subscribed = reply else {
            throw .unexpectedReply(from: daemon.socketPath, reply: FrameSocket.describe(reply))
        }
        let (arrivals, failure) = (arrivals, failure)
        reader = try BenchThread {
            do {
                arrivals.withLock { $0.reserveCapacity(100_000) }
                while let frame = try socket.nextFrame() {
                    let at = MonotonicClock.now()
                    guard let version = try UpdateFrame.version(of: frame) else { continue }
                    arrivals.withLock { $0.append(Arrival(key: version, at: at)) }
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
    }

    /// The version of the newest update received (0 before the first).
    var latestVersion: UInt64 { arrivals.withLock { $0.last?.key ?? 0 } }

    /// Why reading stopped early, if it did.
    var problem: String? { failure.withLock { $0 } }

    /// Waits (polling) until an update of at least `version` arrived, or reading failed.
    func wait(forVersion version: UInt64, what: String, timeout: Double) async throws {
        try await MonotonicClock.pollFromTask("\(what) to show version \(version)", timeout: timeout) {
            latestVersion >= version || problem != nil
        }
        if let problem { throw BenchError.unexpectedReply(from: what, reply: problem) }
    }

    /// Ends the subscription's connection, waits for the reader and returns every arrival.
    func finish() async -> [Arrival] {
        socket.stream.shutDown()
        await reader.joinFromTask()
        return arrivals.withLock { $0 }
    }
}
