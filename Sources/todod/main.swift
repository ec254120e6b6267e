import Glibc
import SyncDaemon
import SyncJournal
import SyncProtocol
import SyncStore
import TodoDomain

/// `todod`: the todo daemon. Parses its options, then serves until SIGINT or SIGTERM.
let logger = Logger(label: "todod")

let usage = """
    usage: todod [--socket PATH] [--data-dir DIR] [--max-frame BYTES] [--clear-done-after SECONDS]

    Serves the todo list on a Unix socket until SIGINT or SIGTERM. Every acknowledged change is
    in the journal DIR/journal.sqlite3 before any client sees it.

      --socket PATH              listen here (default: $TODO_SOCKET, else
                                 $XDG_RUNTIME_DIR/todo/todod.sock, else /tmp/todo-UID/todod.sock)
      --data-dir DIR             keep the journal here (default: $STATE_DIRECTORY, else
                                 $XDG_STATE_HOME/todo, else ~/.local/state/todo)
      --max-frame BYTES          largest frame accepted from a client (default 1048576)
      --clear-done-after SECONDS remove items that have been done this long (default: never)
      --help                     show this help
      --version                  show the version

    """

func fail(_ message: String) -> Never {
    logger.log(message)
    exit(2)
}

func positiveInteger(_ value: String?, for option: String) -> Int {
    guard let value, let number = Int(value), number > 0 else { fail("\(option) needs a positive integer") }
    return number
}

var socketOption: String?
var dataDirectoryOption: String?
var maximumFrame = WireProtocol.defaultMaximumFrameLength
var clearDoneAfter: Int?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--socket":
        guard let path = arguments.next(), !path.isEmpty else { fail("--socket needs a path") }
        socketOption = path
    case "--data-dir":
        guard let path = arguments.next(), !path.isEmpty else { fail("--data-dir needs a path") }
        dataDirectoryOption = path
    case "--max-frame":
        maximumFrame = positiveInteger(arguments.next(), for: "--max-frame")
        if maximumFrame > Int(UInt32.max) { fail("--max-frame cannot exceed \(UInt32.max)") }
    case "--clear-done-after":
        clearDoneAfter = positiveInteger(arguments.next(), for: "--clear-done-after")
        if clearDoneAfter! > 100 * 365 * 86_400 { fail("--clear-done-after is at most 100 years") }
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print("todod \(TodoRelease.version) (protocol \(WireProtocol.version))")
        exit(0)
    default:
        fail("unknown option \(argument)\n\(usage)")
    }
}

var environment: [String: String] = [:]
for name in ["TODO_SOCKET", "XDG_RUNTIME_DIR", "STATE_DIRECTORY", "XDG_STATE_HOME", "HOME"] {
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

let sideEffects: [any SideEffect<TodoState>] = clearDoneAfter.map { seconds in
    [ExpireCompletedItems(retentionMilliseconds: Int64(seconds) * 1000, intervalMilliseconds: min(Int64(seconds) * 1000, 1000))]
} ?? []

do {
    try Daemon<TodoApp>(configuration: configuration, sideEffects: sideEffects, logger: logger).run()
} catch {
    logger.log("cannot start: \(error)")
    exit(1)
}
