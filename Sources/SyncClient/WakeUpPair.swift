import Glibc

/// A socket pair that wakes the connection thread from `poll`: any thread calls `signal()`,
/// the connection thread polls `descriptor` and calls `drain()` once it is readable.
///
/// One pair serves a client for its whole life: the writers that leave bytes unsent for the
/// thread to send (`UnixSocket`) and the tasks queued on its executor (`ConnectionExecutor`)
/// both wake the thread through it, so each connection costs the socket and nothing more.
final class WakeUpPair: Sendable {
    /// The end the connection thread polls: readable once a wake-up was signalled.
    let descriptor: Int32
    private let signalling: Int32

    /// Makes the pair, or throws `.connectionClosed(.threadNotStarted)`: without it the client
    /// cannot wait for anything, and the failure (out of descriptors) is this process's, so it
    /// must not read as a daemon that does not answer (which would start one).
    init() throws(SyncClientError) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw .connectionClosed(.threadNotStarted) }
        descriptor = pair[0]
        signalling = pair[1]
    }

    deinit {
        close(descriptor)
        close(signalling)
    }

    /// Wakes the connection thread, or leaves it to wake: a full socket already holds a
    /// wake-up, so a failed send needs no retry.
    func signal() {
        var byte: UInt8 = 1
        _ = send(signalling, &byte, 1, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
    }

    /// Empties the pair, after `poll` found `descriptor` readable. For the connection thread.
    func drain() {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { bytes in
            while recv(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
    }
}
