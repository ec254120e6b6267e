import Glibc
import SyncDaemon
import SyncJournal
import SyncProtocol
import SyncStore
import TodoDomain

/// `todod`: the todo daemon. Parses its options, then serves until SIGINT or SIGTERM.
let usage = """
    usage: todod [--socket PATH] [--data-dir DIR] [--max-frame BYTES] [--clear-done-after SECONDS]
                 [--log-level LEVEL] [--allow-uid USER]... [--allow-group GROUP]...
                 [--inline-commit-limit N] [--postgres CONNINFO]

    Serves the todo list on a Unix socket until SIGINT or SIGTERM. Every acknowledged change is
    in the journal DIR/journal.sqlite3 before any client sees it. Under systemd it takes the
    socket systemd passes (socket activation) and reports readiness, status and watchdog pings.

      --socket PATH              listen here (default: $TODO_SOCKET, else
                                 $XDG_RUNTIME_DIR/todo/todod.sock, else /tmp/todo-UID/todod.sock)
      --data-dir DIR             keep the journal here (default: $STATE_DIRECTORY, else
                                 $XDG_STATE_HOME/todo, else ~/.local/state/todo)
      --max-frame BYTES          largest frame accepted from a client (default 1048576)
      --clear-done-after SECONDS remove items that have been done this long (default: never)
      --log-level LEVEL          error, warning, info (default) or debug (every connection)
      --allow-uid USER           also serve this user (name or uid); the daemon's own user and
                                 root are always served
      --allow-group GROUP        also serve members of this group (name or gid)
      --inline-commit-limit N    commit batches of at most N actions on the event loop when
                                 no commit is running, no thread hops (default 8; 0: always
                                 on the thread pool)
      --postgres CONNINFO        share one action log with the daemons of other hosts in this
                                 PostgreSQL database (a libpq connection string or URI;
                                 default: $TODOD_POSTGRES; see docs/SCALE_OUT.md). The data
                                 directory then holds only the lock and the last head seen.
                                 Prefer $TODOD_POSTGRES or ~/.pgpass for a password: other
                                 users can read a command line
      --help                     show this help
      --version                  show the version

    SIGTERM and SIGINT: stop accepting, finish the commits in flight, say bye to every client,
    exit 0. SIGHUP: log the current status (there is nothing to reload).

    """

/// Prints one line and exits with status 2 (a usage error).
func fail(_ message: String) -> Never {
    Logger(label: "todod").log(.error, message)
    exit(2)
}

func positiveInteger(_ value: String?, for option: String) -> Int {
    guard let value, let number = Int(value), number > 0 else { fail("\(option) needs a positive integer") }
    return number
}

func required(_ value: String?, for option: String) -> String {
    guard let value, !value.isEmpty else { fail("\(option) needs a value") }
    return value
}

var socketOption: String?
var dataDirectoryOption: String?
var maximumFrame = WireProtocol.defaultMaximumFrameLength
var clearDoneAfter: Int?
var logLevel = Logger.Level.info
var peerPolicy = PeerPolicy()
var inlineCommitLimit: Int?
var postgres: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--socket":
        socketOption = required(arguments.next(), for: "--socket")
    case "--data-dir":
        dataDirectoryOption = required(arguments.next(), for: "--data-dir")
    case "--max-frame":
        maximumFrame = positiveInteger(arguments.next(), for: "--max-frame")
        if maximumFrame > Int(UInt32.max) { fail("--max-frame cannot exceed \(UInt32.max)") }
    case "--clear-done-after":
        let seconds = positiveInteger(arguments.next(), for: "--clear-done-after")
        if seconds > 100 * 365 * 86_400 { fail("--clear-done-after is at most 100 years") }
        clearDoneAfter = seconds
    case "--log-level":
        let name = required(arguments.next(), for: "--log-level")
        guard let level = Logger.Level(name: name) else { fail("--log-level is one of error, warning, info, debug (not \(name))") }
        logLevel = level
    case "--allow-uid":
        let name = required(arguments.next(), for: "--allow-uid")
        guard let uid = PeerPolicy.userID(named: name) else { fail("--allow-uid: no user \(name)") }
        peerPolicy.allowedUserIDs.insert(uid)
    case "--allow-group":
        let name = required(arguments.next(), for: "--allow-group")
        guard let gid = PeerPolicy.groupID(named: name) else { fail("--allow-group: no group \(name)") }
        peerPolicy.allowedGroupIDs.insert(gid)
    case "--inline-commit-limit":
        guard let value = arguments.next(), let limit = Int(value), limit >= 0 else { fail("--inline-commit-limit needs an integer of at least 0") }
        inlineCommitLimit = limit
    case "--postgres":
        postgres = required(arguments.next(), for: "--postgres")
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print("todod \(TodoRelease.version) (protocol \(WireProtocol.version))")
        exit(0)
    default:
        fail("unknown option \(argument); see todod --help")
    }
}

let logger = Logger(label: "todod", minimumLevel: logLevel)
var environment: [String: String] = [:]
for name in ["TODO_SOCKET", "XDG_RUNTIME_DIR", "STATE_DIRECTORY", "XDG_STATE_HOME", "HOME", "TODOD_POSTGRES"] {
    if let value = getenv(name) { environment[name] = String(cString: value) }
}
guard let dataDirectory = DataDirectory.resolve(explicit: dataDirectoryOption, environment: environment) else {
    fail("no data directory: pass --data-dir DIR (neither $STATE_DIRECTORY, $XDG_STATE_HOME nor $HOME is set)")
}
var configuration = DaemonConfiguration(
    socketPath: SocketPath.resolve(explicit: socketOption, environment: environment, userID: getuid()),
    dataDirectory: dataDirectory,
    serverName: "todod/\(TodoRelease.version)")
configuration.maximumFrameLength = maximumFrame
configuration.peerPolicy = peerPolicy
if let inlineCommitLimit { configuration.inlineCommitLimit = inlineCommitLimit }
if let conninfo = postgres ?? environment["TODOD_POSTGRES"], !conninfo.isEmpty {
    if case .failure(let error) = PostgresTarget.parse(conninfo) { fail("--postgres: \(error)") }
    configuration.postgres = conninfo
}

let sideEffects: [any SideEffect<TodoState, StandardDependencies>] = clearDoneAfter.map { seconds in
    [ExpireCompletedItems(retentionMilliseconds: Int64(seconds) * 1000, intervalMilliseconds: min(Int64(seconds) * 1000, 1000))]
} ?? []

do {
    try Daemon<TodoApp>(configuration: configuration, sideEffects: sideEffects, logger: logger).run()
} catch DaemonError.uncertainCommit(let reason) {
    logger.log(.error, DaemonError.uncertainCommit(reason: reason).description)
    exit(70)
} catch {
    logger.log(.error, "cannot start: \(error)")
    exit(1)
}
