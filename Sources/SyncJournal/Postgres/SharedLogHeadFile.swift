import Glibc

/// The head of the shared log as this daemon last saw it, kept in its data directory, so that
/// a log rewritten while the daemon was stopped is refused at its next start.
///
/// One line, `VERSION HASH`. Written after each commit and catch-up without an fsync (a crash
/// may leave an older head, which only narrows what is checked); a file that cannot be read
/// checks nothing.
struct SharedLogHeadFile {
    let path: String

    /// The remembered head, if there is one.
    func read() -> LogChain? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let parts = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        guard parts.count == 2, let version = UInt64(parts[0]),
            let hash = LogChain.bytes(hex: String(parts[1].filter { !$0.isWhitespace })), hash.count == 32
        else { return nil }
        return LogChain(version: version, hash: hash)
    }

    /// Replaces the remembered head with `head` (write, then rename).
    func remember(_ head: LogChain) {
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let line = Array("\(head.version) \(head.hexHash)\n".utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written == line.count { rename(temporary, path) } else { unlink(temporary) }
    }
}
