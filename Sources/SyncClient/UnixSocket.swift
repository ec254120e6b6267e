import Glibc
import SyncLock
import SyncProtocol

/// A connected Unix stream socket whose writes never block the writer.
///
/// The client does its I/O with plain POSIX sockets and one thread per connection rather than
/// an event loop: a program linking the library gets no loop to run or integrate, the thread
/// turns incoming frames into continuation resumes for Swift concurrency, and a one-shot CLI
/// command starts in a few milliseconds.
///
/// Requests are written from any thread, usually one of Swift's cooperative pool, which must
/// never wait for a daemon that stopped reading (stopped, busy, or with its socket buffer
/// full): on a 2-core machine the pool has 2 threads, and every task of the program would
/// wait with them. So `write` sends only what the socket takes at once (`MSG_DONTWAIT`) and
/// leaves the rest to the connection thread, which sends it as the socket drains while it
/// waits for input in `read`. The task that wrote waits for its reply on a continuation,
/// holding no thread.
///
/// ```
///  write (any thread) ──what the socket takes now──▶ socket
///        └─ the rest ─▶ unsent bytes ──wake-up──▶ read (connection thread):
///                                                 poll(socket: in + out while unsent, wake-up: in)
///                                                 ─▶ send unsent bytes / recv
/// ```
final class UnixSocket: @unchecked Sendable {
    // @unchecked: `output` is only touched while `mutex` is held; the descriptors never change.
    /// The socket's file descriptor, open for the whole life of this object: closing it any
    /// earlier would let the number be reused by another connection while a late `shutDown`
    /// or `write` could still name it.
    let descriptor: Int32
    /// What wakes the connection thread from `poll` (the client's, shared with its executor):
    /// `write` signals it when it leaves bytes unsent, `read` polls it.
    private let wakeUp: WakeUpPair
    /// Serialises writers, so that frames never interleave, and guards `output`.
    private let mutex = PthreadMutex()
    private var output = Output()

    /// The bytes written and not yet taken by the socket, in order.
    private struct Output {
        var unsent: [UInt8] = []
        /// How many bytes of `unsent` the socket took already.
        var sentCount = 0
        /// Why a send failed; from then on nothing is sent (the connection is ending).
        var failure: SyncClientError?

        var hasUnsent: Bool { sentCount < unsent.count }
    }

    /// Connects to `path`, or throws `.daemonUnreachable`; `wakeUp` is the client's.
    init(path: String, wakeUp: WakeUpPair) throws(SyncClientError) {
        guard path.utf8.count <= SocketPath.maximumLength else {
            throw .daemonUnreachable(path: path, reason: "the path is longer than \(SocketPath.maximumLength) bytes")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw .daemonUnreachable(path: path, reason: String(cString: strerror(errno)))
        }
        let connected = SocketPath.withAddress(of: path) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let reason = errno
            close(descriptor)
            throw .daemonUnreachable(
                path: path, reason: reason == ENOENT ? "no such socket" : String(cString: strerror(reason)))
        }
        self.descriptor = descriptor
        self.wakeUp = wakeUp
    }

    /// Writes `bytes` after everything written before, without waiting: what the socket does
    /// not take now is sent by the connection thread in `read`. A failed send is not reported
    /// here: the connection thread finds the connection ended, and the requests are sent again
    /// or failed from there.
    func write(_ bytes: [UInt8]) {
        let leftUnsent = mutex.run { () -> Bool in
            guard output.failure == nil, !bytes.isEmpty else { return false }
            if output.hasUnsent {
                output.unsent += bytes
                return false
            }
            output.unsent = bytes
            output.sentCount = 0
            sendUnsent()
            return output.hasUnsent
        }
        if leftUnsent { wakeUp.signal() }
    }

    /// Why a send failed, if one did.
    var writeFailure: SyncClientError? { mutex.run { output.failure } }

    /// Waits for input, sending the unsent bytes as the socket takes them meanwhile, then reads
    /// what is available into `buffer`; 0 means end of stream. Gives up after `timeoutSeconds`
    /// without input (`nil`: waits for ever). Meanwhile runs the jobs queued on `jobs`, a batch
    /// before each wait. For the connection thread only.
    func read(
        into buffer: UnsafeMutableRawBufferPointer, timeoutSeconds: Int? = nil, jobs: ConnectionExecutor
    ) throws(SyncClientError) -> Int {
        let deadline = timeoutSeconds.map { ContinuousClock.now + .seconds($0) }
        while true {
            if let deadline, ContinuousClock.now >= deadline { throw .connectionClosed(.timedOut) }
            jobs.runPending()
            let writing = mutex.run { () -> Bool in
                sendUnsent()
                return output.hasUnsent
            }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = jobs.pollTimeout(deadline.map(Self.milliseconds(until:)) ?? -1)
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .connectionClosed(.readFailed(errno: errno))
            }
            if descriptors[1].revents != 0 { wakeUp.drain() }
            guard descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            let count = recv(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if count >= 0 { return count }
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw .connectionClosed(.readFailed(errno: errno))
            }
        }
    }

    /// Ends both directions; a waiting `read` returns 0.
    func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        close(descriptor)
    }

    /// Sends unsent bytes until the socket takes no more, without waiting. Call with `mutex` held.
    private func sendUnsent() {
        while output.hasUnsent {
            let sent = output.unsent.withUnsafeBytes { bytes in
                send(
                    descriptor, bytes.baseAddress! + output.sentCount, bytes.count - output.sentCount,
                    Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if sent >= 0 {
                output.sentCount += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else if errno != EINTR {
                output.failure = .connectionClosed(.writeFailed(errno: errno))
                output.unsent = []
                output.sentCount = 0
            }
        }
        if !output.hasUnsent {
            output.unsent = []
            output.sentCount = 0
        } else if output.sentCount >= 1 << 16, output.sentCount * 2 >= output.unsent.count {
            // Drop what was sent once it is most of the buffer, so that a long backlog written
            // bit by bit is not copied again and again.
            output.unsent.removeFirst(output.sentCount)
            output.sentCount = 0
        }
    }

    /// The milliseconds left until `deadline` (at least 0), for `poll`.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        return Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
    }
}
