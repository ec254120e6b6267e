import TerminalUI

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
        Array(text.utf8).withUnsafeBytes { writeAll(descriptor, $0) }
    }
}
