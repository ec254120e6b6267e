import BoardDomain
import Glibc
import SyncDaemon

/// `boardd`: the board daemon, on today's daemon runtime. It takes its socket and data
/// directory explicitly (the runtime's defaults are still the todo app's); the standard
/// daemon runner of the framework will replace this file.
let usage = """
    usage: boardd --socket PATH --data-dir DIR [--log-level LEVEL]

    Serves the kanban board on a Unix socket until SIGINT or SIGTERM. Every acknowledged change
    is in the journal DIR/journal.sqlite3 before any client sees it.

      --socket PATH      listen here
      --data-dir DIR     keep the journal here
      --log-level LEVEL  error, warning, info (default) or debug
      --help             show this help
      --version          show the version

    """

/// Prints one line and exits with status 2 (a usage error).
func fail(_ message: String) -> Never {
    Logger(label: "boardd").log(.error, message)
    exit(2)
}

var socket: String?
var dataDirectory: String?
var logLevel = Logger.Level.info
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--socket": socket = arguments.next()
    case "--data-dir": dataDirectory = arguments.next()
    case "--log-level":
        guard let name = arguments.next(), let level = Logger.Level(name: name) else { fail("--log-level is one of error, warning, info, debug") }
        logLevel = level
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print("boardd \(BoardRelease.version)")
        exit(0)
    default:
        fail("unknown option \(argument); see boardd --help")
    }
}
guard let socket, !socket.isEmpty else { fail("--socket PATH is required") }
guard let dataDirectory, !dataDirectory.isEmpty else { fail("--data-dir DIR is required") }

let logger = Logger(label: "boardd", minimumLevel: logLevel)
let configuration = DaemonConfiguration(socketPath: socket, dataDirectory: dataDirectory, serverName: "boardd/\(BoardRelease.version)")
do {
    try Daemon<BoardApp>(configuration: configuration, logger: logger).run()
} catch {
    logger.log(.error, "cannot start: \(error)")
    exit(1)
}
