import Glibc

/// The daemon's data directory, created 0700 and held under an exclusive lock so that a second
/// daemon cannot open the same journal.
///
/// The lock is `flock` on a lock file inside the directory (the app's `todod.lock`); the kernel releases it when the
/// process exits, however it exits, so a crash never leaves a stale lock behind.
public final class DataDirectory {
    /// The directory.
    public let path: String
    private let lockDescriptor: Int32

    /// Creates `path` (and missing parents, mode 0700) and takes the lock of the file
    /// `lockName` in it for `owner` (the daemon's name, for the error a second daemon gets), or
    /// explains why not.
    ///
    /// `path` is the directory with symbolic links resolved (systemd's `DynamicUser=` makes
    /// `/var/lib/todo` a link to `/var/lib/private/todo`; the journal refuses to open a file
    /// through links).
    public init(path requested: String, lockName: String, owner: String) throws(DataDirectoryError) {
        var prefix = requested.hasPrefix("/") ? "" : "."
        for component in requested.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreate(path: prefix, reason: String(cString: strerror(errno)))
            }
        }
        guard let resolved = realpath(requested, nil) else {
            throw .cannotCreate(path: requested, reason: String(cString: strerror(errno)))
        }
        let path = String(cString: resolved)
        free(resolved)
        self.path = path
        if let other = Self.otherDaemonsLock(in: path, besides: lockName) {
            throw .otherDaemons(path: path, lockFile: other)
        }
        let lockPath = path + "/" + lockName
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotCreate(path: lockPath, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPID(descriptor)
            close(descriptor)
            throw .inUse(path: path, owner: owner, holderPID: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        lockDescriptor = descriptor
    }

    deinit {
        close(lockDescriptor)
    }

    /// The path of a file in the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The lock file of another daemon in `directory`, if any: the directory holds that
    /// daemon's journal, which this one must not open (every journal file has the same name).
    private static func otherDaemonsLock(in directory: String, besides lockName: String) -> String? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".lock"), name != lockName, name != "autostart.lock" { return name }
        }
        return nil
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingSuffixNewline)
    }
}

/// Why the data directory cannot be used.
public enum DataDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A directory or the lock file cannot be created.
    case cannotCreate(path: String, reason: String)
    /// The directory belongs to another app's daemon (it holds that daemon's lock file).
    case otherDaemons(path: String, lockFile: String)
    /// Another process (a daemon named `owner`) holds the directory's lock.
    case inUse(path: String, owner: String, holderPID: Int32?)

    /// One line naming the directory and the problem.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "cannot create \(path): \(reason)"
        case .otherDaemons(let path, let lockFile):
            let daemon = lockFile.dropLast(".lock".count)
            return
                "data directory \(path) belongs to \(daemon) (it holds \(lockFile)); give this daemon a directory of its own"
        case .inUse(let path, let owner, let pid):
            return "data directory \(path) is in use by another \(owner)" + (pid.map { " (pid \($0))" } ?? "")
        }
    }
}

extension String {
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
