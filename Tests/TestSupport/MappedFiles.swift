import Glibc

/// The files process `pid` has mapped, by path: `/proc/PID/maps` read to its end (a
/// `String(contentsOfFile:)` of it stops after its first page, as the file has no size).
public func mappedFiles(of pid: pid_t) throws -> Set<String> {
    let descriptor = open("/proc/\(pid)/maps", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw TestFailure("cannot open /proc/\(pid)/maps: errno \(errno)") }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw TestFailure("cannot read /proc/\(pid)/maps: errno \(errno)") }
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    return Set(
        lines.compactMap { line in
            line.split(separator: " ", maxSplits: 5).dropFirst(5).first.map { $0.trimmingPrefix(" ") }.map(String.init)
        })
}

extension Set<String> {
    /// Whether a mapped path's file name starts with `name` (`libpq.so` for libpq.so.5.15).
    public func maps(_ name: String) -> Bool {
        contains { path in path.split(separator: "/").last?.hasPrefix(name) ?? false }
    }
}
