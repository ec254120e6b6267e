import SyncJournal
import SyncProtocol
import SyncStore

/// A daemon's command line, parsed: the standard options every app's daemon takes, and the
/// values of the app's own options for the app to read.
public struct DaemonArguments: Sendable {
    /// What the command line asks for.
    public enum Request: Sendable, Equatable {
        /// Serve with these arguments.
        case serve
        /// Print the help and exit 0.
        case help
        /// Print the version and exit 0.
        case version
        /// Print the manual page (roff) and exit 0.
        case manual
        /// Create or migrate the shared log's schema (`--postgres`), then exit.
        case prepareSchema
    }

    /// What the command line asks for.
    public private(set) var request = Request.serve
    /// `--socket PATH`.
    public private(set) var socket: String?
    /// `--data-dir DIR`.
    public private(set) var dataDirectory: String?
    /// `--postgres CONNINFO`.
    public private(set) var postgres: String?
    /// `--log-level LEVEL`.
    public private(set) var logLevel = Logger.Level.info
    /// `--max-frame BYTES`.
    public private(set) var maximumFrameLength = WireProtocol.defaultMaximumFrameLength
    /// `--inline-commit-limit N`.
    public private(set) var inlineCommitLimit: Int?
    /// `--snapshot-interval N`.
    public private(set) var snapshotInterval: UInt64?
    /// `--max-replay N`.
    public private(set) var maximumReplayedActions: Int?
    /// `--verify-interval SECONDS`.
    public private(set) var verifyIntervalSeconds: Int?
    /// `--allow-uid` and `--allow-group`.
    public private(set) var peerPolicy = PeerPolicy()
    private var appValues: [String: [String]] = [:]

    /// The options every daemon takes, in the order `--help` lists them.
    public static let standardOptions: [DaemonOption] = [
        DaemonOption("--socket", argument: "PATH", help: ["listen here (default: see below)"]),
        DaemonOption("--data-dir", argument: "DIR", help: ["keep the journal here (default: see below)"]),
        DaemonOption(
            "--max-frame", argument: "BYTES",
            help: ["largest frame accepted from a client (default \(WireProtocol.defaultMaximumFrameLength))"]),
        DaemonOption(
            "--log-level", argument: "LEVEL", help: ["error, warning, info (default) or debug (every connection)"]),
        DaemonOption(
            "--allow-uid", argument: "USER", repeats: true,
            help: [
                "also serve this user (name or uid); the daemon's own user and", "root are always served",
            ]),
        DaemonOption(
            "--allow-group", argument: "GROUP", repeats: true, help: ["also serve members of this group (name or gid)"]),
        DaemonOption(
            "--inline-commit-limit", argument: "N",
            help: [
                "commit batches of at most N actions on the event loop when",
                "no commit is running, no thread hops (default 8; 0: always",
                "on the thread pool)",
            ]),
        DaemonOption(
            "--postgres", argument: "CONNINFO",
            help: [
                "share one action log with the daemons of other hosts in this",
                "PostgreSQL database (a libpq connection string or URI;",
                "see the manual). The data directory then holds only",
                "the lock and the last head seen. Prefer the environment",
                "variable or ~/.pgpass for a password: other users can read", "a command line",
            ]),
        DaemonOption(
            "--verify-interval", argument: "SECONDS",
            help: [
                "with --postgres: verify the whole shared log again every",
                "SECONDS (default 30), at most a twentieth of one core",
            ]),
        DaemonOption(
            "--snapshot-interval", argument: "N",
            help: [
                "save a snapshot of the state exactly every N versions",
                "(default: every 1000, further apart while the actions since",
                "the last snapshot hold fewer bytes than four times that",
                "snapshot, and at most a quarter of --max-replay apart)",
            ]),
        DaemonOption(
            "--max-replay", argument: "N",
            help: [
                "replay at most N actions to answer one read of a past version", "(a get with at; default 10000)",
            ]),
        DaemonOption(
            "--prepare-schema",
            help: [
                "with --postgres: create or migrate the shared log's schema,",
                "then exit (run it as the role owning the schema)",
            ]),
        DaemonOption("--help", help: ["show this help"]),
        DaemonOption("--version", help: ["show the version"]),
        DaemonOption("--manual", help: ["print the manual page (roff; man -l - reads it)"]),
    ]

    /// Parses `words` (the arguments after the program name) against the standard options and
    /// `appOptions`. Throws the first problem found.
    public init(parsing words: [String], appOptions: [DaemonOption] = []) throws(DaemonUsageError) {
        let appNames = Dictionary(appOptions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var words = words.makeIterator()
        while let word = words.next() {
            func value() throws(DaemonUsageError) -> String {
                guard let value = words.next(), !value.isEmpty else { throw DaemonUsageError("\(word) needs a value") }
                return value
            }
            switch word {
            case "--socket": socket = try value()
            case "--data-dir": dataDirectory = try value()
            case "--postgres": postgres = try value()
            case "--max-frame":
                maximumFrameLength = try Self.integer(try value(), for: word, in: 1...Int(UInt32.max))
            case "--log-level":
                let name = try value()
                guard let level = Logger.Level(name: name) else {
                    throw DaemonUsageError("--log-level is one of error, warning, info, debug (not \(name))")
                }
                logLevel = level
            case "--allow-uid":
                let name = try value()
                guard let uid = PeerPolicy.userID(named: name) else {
                    throw DaemonUsageError("--allow-uid: no user \(name)")
                }
                peerPolicy.allowedUserIDs.insert(uid)
            case "--allow-group":
                let name = try value()
                guard let gid = PeerPolicy.groupID(named: name) else {
                    throw DaemonUsageError("--allow-group: no group \(name)")
                }
                peerPolicy.allowedGroupIDs.insert(gid)
            case "--inline-commit-limit":
                inlineCommitLimit = try Self.integer(try value(), for: word, in: 0...Int.max)
            case "--snapshot-interval":
                snapshotInterval = UInt64(try Self.integer(try value(), for: word, in: 1...Int.max))
            case "--max-replay":
                maximumReplayedActions = try Self.integer(try value(), for: word, in: 1...Int.max)
            case "--verify-interval":
                verifyIntervalSeconds = try Self.integer(try value(), for: word, in: 1...86_400)
            case "--help", "-h": request = .help
            case "--version": request = .version
            case "--manual": request = .manual
            case "--prepare-schema": request = .prepareSchema
            default:
                guard let option = appNames[word] else { throw DaemonUsageError("unknown option \(word)") }
                let given = option.takesValue ? try value() : ""
                if !option.repeats, appValues[word] != nil { throw DaemonUsageError("\(word) is given twice") }
                appValues[word, default: []].append(given)
            }
        }
    }

    /// The value of the app's option `name`, nil when not given (the last one for a
    /// repeating option; `""` for a flag without a value).
    public func value(of name: String) -> String? {
        appValues[name]?.last
    }

    /// Every value given for the app's option `name`, in order.
    public func values(of name: String) -> [String] {
        appValues[name] ?? []
    }

    /// The app's option `name` as an integer in `range`, nil when not given.
    public func integer(of name: String, in range: ClosedRange<Int>) throws(DaemonUsageError) -> Int? {
        guard let text = value(of: name) else { return nil }
        return try Self.integer(text, for: name, in: range)
    }

    /// The daemon's configuration: the options, else the identity's defaults from `environment`.
    public func configuration(
        of identity: AppIdentity, environment: [String: String], userID: UInt32
    ) throws(DaemonUsageError) -> DaemonConfiguration {
        guard let directory = identity.dataDirectory(explicit: dataDirectory, environment: environment) else {
            throw DaemonUsageError(
                "no data directory: pass --data-dir DIR (neither $STATE_DIRECTORY, $XDG_STATE_HOME nor $HOME is set)")
        }
        var configuration = DaemonConfiguration(
            identity: identity,
            socketPath: identity.socketPath(explicit: socket, environment: environment, userID: userID),
            dataDirectory: directory)
        configuration.maximumFrameLength = maximumFrameLength
        configuration.peerPolicy = peerPolicy
        if let inlineCommitLimit { configuration.inlineCommitLimit = inlineCommitLimit }
        if let snapshotInterval {
            configuration.snapshotInterval = snapshotInterval
            configuration.snapshotsFollowStateSize = false
        }
        if let maximumReplayedActions { configuration.maximumReplayedActions = maximumReplayedActions }
        if let verifyIntervalSeconds { configuration.verifyIntervalSeconds = verifyIntervalSeconds }
        if let conninfo = postgres ?? environment[identity.postgresVariable], !conninfo.isEmpty {
            if case .failure(let error) = PostgresTarget.parse(conninfo) {
                throw DaemonUsageError("--postgres: \(error)")
            }
            configuration.postgres = conninfo
        }
        return configuration
    }

    private static func integer(_ text: String, for option: String, in range: ClosedRange<Int>) throws(DaemonUsageError)
        -> Int
    {
        guard let number = Int(text), range.contains(number) else {
            let bound =
                range.upperBound == Int.max
                ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw DaemonUsageError("\(option) needs an integer \(bound) (not \(text))")
        }
        return number
    }
}
