import Foundation
import Glibc

/// A small `tmpfs` mounted for one test on a new directory under a private temporary
/// directory: a real file system that really fills up. Mounting needs root (`CAP_SYS_ADMIN`,
/// see `isPermitted`).
///
/// `unmount()` (also run by `deinit`) unmounts it, lazily if a process still holds a file on
/// it, and removes the directories; the memory goes back once the last such file is closed.
public final class TmpfsMount {
    /// Whether this process may mount file systems: it holds `CAP_SYS_ADMIN` (root does,
    /// except in a container that took it away).
    public static var isPermitted: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let capabilities = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        let systemAdministration: UInt64 = 21 // CAP_SYS_ADMIN
        return capabilities & (1 << systemAdministration) != 0
    }

    /// The mount point (mode 0700).
    public let path: String
    private let parent: String
    private var isMounted = true

    /// Mounts a tmpfs of `bytes` (rounded up to whole pages by the kernel).
    public init(bytes: Int) throws {
        parent = try makeTemporaryDirectory()
        path = parent + "/tmpfs"
        guard mkdir(path, 0o700) == 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(parent)
            throw TestFailure("mkdir \(path): \(reason)")
        }
        guard mount("tmpfs", path, "tmpfs", UInt(MS_NOSUID | MS_NODEV), "size=\(bytes),mode=0700") == 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(path)
            rmdir(parent)
            throw TestFailure("mounting a tmpfs on \(path) failed: \(reason)")
        }
    }

    deinit {
        unmount()
    }

    /// Unmounts the file system (lazily if it is busy) and removes the directories. Idempotent.
    public func unmount() {
        guard isMounted else { return }
        isMounted = false
        if Glibc.umount(path) != 0 { umount2(path, Int32(MNT_DETACH)) }
        rmdir(path)
        rmdir(parent)
    }

    /// Free bytes left for an unprivileged writer.
    public var availableBytes: Int {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return -1 }
        return Int(status.f_bavail) * Int(status.f_frsize)
    }

    /// Writes the file `name` in the mount until the file system is full (`ENOSPC`), and
    /// returns how many bytes it took. Fails if space is still left after that.
    @discardableResult
    public func fill(_ name: String) throws -> Int {
        let file = path + "/" + name
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(file): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // Whole pages, so that the last write that fits leaves no partly used page behind.
        let chunk = [UInt8](repeating: 0xA5, count: Int(getpagesize()))
        var total = 0
        while true {
            let written = write(descriptor, chunk, chunk.count)
            if written < 0 && errno == EINTR { continue }
            if written < 0 && errno == ENOSPC { break }
            guard written > 0 else { throw TestFailure("writing \(file) failed: \(String(cString: strerror(errno)))") }
            total += written
        }
        guard availableBytes == 0 else {
            throw TestFailure("\(path) still has \(availableBytes) bytes free after filling it")
        }
        return total
    }
}
