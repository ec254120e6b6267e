import CUV
import SyncEngine

extension CloseReason {
    /// The socket operations whose failure ends a connection.
    enum Operation {
        /// `uv_read_start` or a read callback.
        case read
        /// `uv_write` or a write callback.
        case write
    }

    /// The reason `status` of a failed `operation` (a read or a write) ends a connection: the
    /// client going away (EPIPE, ECONNRESET), or a failure of the socket.
    static func failure(of operation: Operation, status: Int32) -> CloseReason {
        let error = SocketError(code: status, name: String(cString: uv_err_name(status)))
        if status == UV_EPIPE.rawValue || status == UV_ECONNRESET.rawValue { return .clientWentAway(error) }
        switch operation {
        case .read: return .readFailed(error)
        case .write: return .writeFailed(error)
        }
    }
}
