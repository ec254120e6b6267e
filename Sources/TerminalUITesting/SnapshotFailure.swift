/// Why a snapshot check failed. Its description is what the test failure shows.
public enum SnapshotFailure: Error, Equatable, CustomStringConvertible {
    /// The name was used by another snapshot check in this run (names must be unique, or
    /// one check would silently overwrite the other's files).
    case duplicateName(String)
    /// The name cannot be a file name (empty, or other than letters, digits, `.`, `-`, `_`).
    case invalidName(String)
    /// No sizes were given.
    case noSizes(String)
    /// Some sizes did not match; each problem names its file.
    case mismatched(name: String, problems: [Problem])
    /// A snapshot file could not be written while recording.
    case cannotWrite(path: String, reason: String)

    /// What went wrong at one size.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// No file yet; `rendering` is what would be recorded.
        case missing(path: String, rendering: String)
        /// The file differs from the rendering; `diff` shows how.
        case different(path: String, diff: String)

        /// Several lines: the file, then the rendering or the diff.
        public var description: String {
            switch self {
            case .missing(let path, let rendering):
                return
                    "no snapshot \(path) (run with \(Snapshots.recordVariable)=1 to record it); the view renders:\n\(rendering)"
            case .different(let path, let diff):
                return
                    "\(path) differs (- snapshot, + rendering; \(Snapshots.recordVariable)=1 records the rendering):\n\(diff)"
            }
        }
    }

    /// The failure, readable in a test log.
    public var description: String {
        switch self {
        case .duplicateName(let name):
            return "snapshot name \"\(name)\" is used twice in this run; give each snapshot its own name"
        case .invalidName(let name): return "\"\(name)\" is not a snapshot name: use letters, digits, '.', '-' and '_'"
        case .noSizes(let name): return "snapshot \"\(name)\" was given no terminal sizes"
        case .mismatched(let name, let problems):
            return "snapshot \"\(name)\" does not match:\n" + problems.map(\.description).joined(separator: "\n\n")
        case .cannotWrite(let path, let reason): return "cannot record snapshot \(path): \(reason)"
        }
    }
}
