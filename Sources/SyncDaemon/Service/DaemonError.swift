import CUV
import Glibc
import SyncJournal

/// Why the daemon could not start or keep serving. Each case says what happened to what.
public enum DaemonError: Error, CustomStringConvertible {
    /// A libuv call failed: the operation, what it was applied to, and libuv's error code.
    case libuv(operation: String, subject: String, code: Int32)
    /// A system call failed: the operation, what it was applied to, and `errno`.
    case system(operation: String, subject: String, errno: Int32)
    /// A live daemon already answers on the socket path.
    case alreadyRunning(path: String)
    /// Something that is not a socket sits where the socket should go.
    case notASocket(path: String)
    /// The socket path does not fit a Unix socket address.
    case socketPathTooLong(path: String, maximum: Int)
    /// The socket's directory could let another user impersonate the daemon.
    case unsafeDirectory(path: String, reason: String)
    /// The sockets passed by systemd cannot be used.
    case activation(reason: String)
    /// The data directory cannot be used.
    case dataDirectory(DataDirectoryError)
    /// The journal cannot be opened or read.
    case journal(JournalError)
    /// The journal reads but does not rebuild a state: the file and the problem.
    case recovery(path: String, reason: String)
    /// A commit may or may not be on disk (flushing failed): the daemon stopped so that the
    /// next start's recovery reads what the disk holds. An executable exits with status 70.
    case uncertainCommit(reason: String)

    /// One line naming the failure, the subject and the cause.
    public var description: String {
        switch self {
        case .libuv(let operation, let subject, let code):
            return
                "\(operation) \(subject) failed: \(String(cString: uv_err_name(code))) (\(String(cString: uv_strerror(code))))"
        case .system(let operation, let subject, let errno):
            return "\(operation) \(subject) failed: \(String(cString: strerror(errno)))"
        case .alreadyRunning(let path):
            return "another daemon is already listening on \(path)"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; move it away or choose another --socket"
        case .socketPathTooLong(let path, let maximum):
            return "socket path \(path) is longer than \(maximum) bytes"
        case .unsafeDirectory(let path, let reason):
            return "refusing to put the socket in \(path): \(reason)"
        case .activation(let reason):
            return "socket activation failed: \(reason)"
        case .dataDirectory(let error):
            return error.description
        case .journal(let error):
            return error.description
        case .recovery(let path, let reason):
            return "cannot recover from journal \(path): \(reason); the file was left as it is"
        case .uncertainCommit(let reason):
            return
                "stopped: a commit may or may not be on disk (\(reason)); the next start recovers what the disk holds"
        }
    }

    /// Throws `.libuv` when `result` is a libuv error code.
    static func check(_ result: Int32, _ operation: String, _ subject: String) throws(DaemonError) {
        if result < 0 { throw .libuv(operation: operation, subject: subject, code: result) }
    }
}
