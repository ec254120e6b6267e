import TerminalUI

/// Standard output or standard error, written unbuffered (Swift 6 rejects the C `stdout`
/// globals, and a command that redraws must show each rendering at once).
public enum StandardStream: Int32, Sendable {
    /// Descriptor 1.
    case output = 1
    /// Descriptor 2.
    case error = 2

    /// Writes all of `text`.
    public func write(_ text: String) {
        Array(text.utf8).withUnsafeBytes { writeAll(rawValue, $0) }
    }
}
