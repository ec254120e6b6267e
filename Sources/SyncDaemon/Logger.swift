import Glibc

/// Writes one line per event worth knowing to standard error, prefixed with a UTC timestamp.
///
/// Standard error is unbuffered and every line is one `write(2)`, so lines from the loop thread
/// and from side-effect tasks never interleave mid-line.
public struct Logger: Sendable {
    /// The program name written after the timestamp.
    public let label: String

    /// A logger that prefixes lines with `label`.
    public init(label: String) {
        self.label = label
    }

    /// Logs one line.
    public func log(_ message: String) {
        let line = "\(Self.timestamp()) \(label): \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let written = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        let milliseconds = now.tv_nsec / 1_000_000
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        let date = String(decoding: buffer[..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(date).\(fraction)Z"
    }
}
