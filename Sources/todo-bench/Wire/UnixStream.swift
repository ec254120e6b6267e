import Glibc
import SyncProtocol

/// A connected Unix stream socket with blocking I/O: the transport under the bench's raw
/// protocol clients (`FrameSocket` for todod, `RESPSocket` for Redis).
///
/// One thread may write while another reads; two writers or two readers need their own
/// serialisation. Reads give up after the receive timeout, so a server that stops answering
/// fails the figure instead of hanging it.
final class UnixStream: @unchecked Sendable {
    // @unchecked: the descriptor is immutable; the kernel serialises the syscalls on it.
    /// The socket's file descriptor, open until this object goes.
    let descriptor: Int32
    /// The socket path, for messages.
    let path: String

    /// Connects to `path`; reads wait at most `receiveTimeout` seconds.
    init(path: String, receiveTimeout: Double = 120) throws(BenchError) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw .socket(path: path, operation: "socket", reason: String(cString: strerror(errno)))
        }
        let connected = SocketPath.withAddress(of: path) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .socket(path: path, operation: "connect", reason: reason)
        }
        var limit = timeval(tv_sec: Int(receiveTimeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(BenchError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .socket(path: path, operation: "write", reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Reads what is available into `buffer` (blocking until something is); 0 means the
    /// server closed the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(BenchError) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            let reason = errno == EAGAIN ? "no reply within the receive timeout" : String(cString: strerror(errno))
            throw .socket(path: path, operation: "read", reason: reason)
        }
    }

    /// Ends both directions: a read blocked on another thread returns 0.
    func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
