import Glibc
import SyncProtocol

/// Prepares the place where the daemon's socket goes: its directory, and any file already
/// there (a live daemon refuses the start; a stale socket is removed); then binds it.
enum SocketFile {
    /// What `prepare` found at the path.
    enum Preparation {
        /// Nothing was there.
        case fresh
        /// A socket nobody listened on (left by a crash) was removed.
        case replacedStaleSocket
    }

    /// Makes `path` ready to bind, or explains why it cannot be.
    ///
    /// The socket's directory is created (mode 0700) if missing, but not its parents: a typo
    /// should fail, not leave directories behind. An existing directory must belong to this
    /// user and not be writable by others (unless sticky, like /tmp), or another user could
    /// put their own socket at the path clients trust.
    static func prepare(_ path: String) throws(DaemonError) -> Preparation {
        guard path.utf8.count <= SocketPath.maximumLength else {
            throw .socketPathTooLong(path: path, maximum: SocketPath.maximumLength)
        }
        try prepareDirectory(of: path)
        var status = stat()
        guard lstat(path, &status) == 0 else { return .fresh }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        if SocketPath.isAnswering(path) { throw .alreadyRunning(path: path) }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .system(operation: "removing stale socket", subject: path, errno: errno)
        }
        return .replacedStaleSocket
    }

    /// A new Unix stream socket bound to `path`, mode 0600, not yet listening. The mode is set
    /// on the socket before `bind` (Linux gives the file the socket's mode, less the umask)
    /// rather than by narrowing the umask, which is the whole process's: every file another
    /// thread created meanwhile would be narrowed too.
    static func bind(_ path: String) throws(DaemonError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system(operation: "creating a socket for", subject: path, errno: errno) }
        let failure = SocketPath.withAddress(of: path) { address, length in
            fchmod(descriptor, 0o600) == 0 && Glibc.bind(descriptor, address, length) == 0 ? 0 : errno
        }
        guard failure == 0 else {
            close(descriptor)
            throw .system(operation: "binding", subject: path, errno: failure)
        }
        return descriptor
    }

    private static func prepareDirectory(of path: String) throws(DaemonError) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory
        if mkdir(name, 0o700) != 0 && errno != EEXIST {
            throw .system(operation: "creating the socket directory", subject: name, errno: errno)
        }
        var status = stat()
        guard stat(name, &status) == 0 else { throw .system(operation: "inspecting", subject: name, errno: errno) }
        let writableByOthers = status.st_mode & 0o022 != 0 && status.st_mode & S_ISVTX == 0
        guard status.st_uid == getuid() || status.st_uid == 0, !writableByOthers else {
            throw .unsafeDirectory(
                path: name,
                reason: writableByOthers ? "it is writable by other users" : "it belongs to user \(status.st_uid)")
        }
    }
}
