import Glibc
import SyncProtocol

/// Prepares the place where the daemon's socket goes: the directory (created 0700), and any
/// file already there (a live daemon refuses the start; a stale socket is removed).
enum SocketFile {
    /// Makes `path` ready to bind, or explains why it cannot be.
    static func prepare(_ path: String) throws(DaemonError) {
        guard path.utf8.count <= SocketPath.maximumLength else {
            throw .socketPathTooLong(path: path, maximum: SocketPath.maximumLength)
        }
        try createDirectories(for: path)
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        if isAnswering(path) { throw .alreadyRunning(path: path) }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .system(operation: "removing stale socket", subject: path, errno: errno)
        }
    }

    /// Whether something accepts connections on the socket at `path`.
    static func isAnswering(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { Glibc.close(descriptor) }
        return SocketPath.withAddress(of: path) { connect(descriptor, $0, $1) } == 0
    }

    /// Creates the missing directories above `path`, mode 0700.
    private static func createDirectories(for path: String) throws(DaemonError) {
        var directory = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/").dropLast() {
            directory += "/" + component
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw .system(operation: "creating directory", subject: directory, errno: errno)
            }
        }
    }
}
