import Glibc

/// Unbuffered writes to standard output and standard error (Swift 6 rejects the C `stdout`
/// globals, and `watch` must show each rendering at once).
enum Output {
    /// Writes `text` to standard output.
    static func out(_ text: String) {
        write(1, text)
    }

    /// Writes `todo: message` and a newline to standard error.
    static func error(_ message: String) {
        write(2, "todo: \(message)\n")
    }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
