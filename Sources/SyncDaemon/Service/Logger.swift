import Glibc

/// Writes one line per event worth knowing to standard error (or another descriptor).
///
/// Under systemd (`$JOURNAL_STREAM` set: standard error is connected to the journal) each line
/// starts with its syslog priority (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug) and has
/// no timestamp, since the journal adds its own. Otherwise lines start with a UTC timestamp and
/// the level in words. Every line is one `write(2)`, so lines from the loop thread and from
/// side-effect tasks never interleave.
public struct Logger: Sendable {
    /// How much matters, most important first.
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        /// Something failed: a commit, a start.
        case error = 3
        /// Something is wrong but handled: a misbehaving client, a refused peer.
        case warning = 4
        /// The daemon's life: start, recovery, listening, stopping.
        case info = 6
        /// Every connection and disconnection.
        case debug = 7

        /// The level named `name` (`error`, `warning`, `info`, `debug`).
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { "\($0)" == name }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue > rhs.rawValue }
    }

    /// The program name written after the timestamp.
    public let label: String
    /// Lines below this level are not written.
    public let minimumLevel: Level
    /// Whether lines carry syslog priority prefixes for the journal instead of timestamps.
    public let forJournal: Bool
    /// The file descriptor lines are written to: 2, standard error, unless a test says otherwise.
    public let descriptor: Int32

    /// A logger that prefixes lines with `label` and writes `minimumLevel` and above to
    /// `descriptor`.
    public init(
        label: String, minimumLevel: Level = .info, forJournal: Bool = getenv("JOURNAL_STREAM") != nil,
        descriptor: Int32 = 2
    ) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.forJournal = forJournal
        self.descriptor = descriptor
    }

    /// Logs one line at `level`.
    public func log(_ level: Level, _ message: String) {
        guard level >= minimumLevel else { return }
        let line =
            forJournal ? "<\(level.rawValue)>\(message)\n" : "\(Self.timestamp()) \(label) \(level): \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
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
        let fraction =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        let date = String(decoding: buffer[..<written].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(date).\(fraction)Z"
    }
}
