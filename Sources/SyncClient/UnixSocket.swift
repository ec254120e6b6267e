import Glibc
import SyncProtocol

/// A connected Unix stream socket with blocking reads and writes.
///
/// The client does its I/O with plain POSIX sockets and one reader thread rather than an event
/// loop: a program linking the library gets no loop to run or integrate, the reader thread
/// turns incoming frames into continuation resumes for Swift concurrency, and a one-shot CLI
/// command starts in a few milliseconds.
final class UnixSocket: Sendable {
    /// The socket's file descriptor, open for the whole life of this object: closing it any
    /// earlier would let the number be reused by another connection while a late `shutDown`
    /// or `write` could still name it.
    let descriptor: Int32

    /// Connects to `path`, or throws `.daemonUnreachable`.
    init(path: String) throws(SyncClientError) {
        guard path.utf8.count <= SocketPath.maximumLength else {
            throw .daemonUnreachable(path: path, reason: "the path is longer than \(SocketPath.maximumLength) bytes")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .daemonUnreachable(path: path, reason: String(cString: strerror(errno))) }
        let connected = SocketPath.withAddress(of: path) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let reason = errno
            close(descriptor)
            throw .daemonUnreachable(path: path, reason: reason == ENOENT ? "no such socket" : String(cString: strerror(reason)))
        }
        self.descriptor = descriptor
    }

    /// Writes all of `bytes`. Callers serialise their writes (`RequestSender` holds its lock
    /// around every write), so that frames never interleave.
    func write(_ bytes: [UInt8]) throws(SyncClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .connectionClosed(reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Reads what is available into `buffer`; 0 means end of stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SyncClientError) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw .connectionClosed(reason: "timed out waiting for data") }
            if errno != EINTR { throw .connectionClosed(reason: String(cString: strerror(errno))) }
        }
    }

    /// Makes `read` fail after `seconds` without data (0: wait forever).
    func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Ends both directions; a blocked `read` returns 0.
    func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit {
        close(descriptor)
    }
}
