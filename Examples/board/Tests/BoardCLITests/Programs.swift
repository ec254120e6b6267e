import BoardDomain
import SyncIntegrationTesting

/// The board's programs as its tests run them, on `SyncIntegrationTesting`.
enum Programs {
    /// Runs `name` with `arguments` to its end; `board` sees no `BOARD_SOCKET` and never starts
    /// a daemon unless `environment` says otherwise.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProgramRun {
        try BuiltPrograms.run(
            name, arguments,
            environment: BuiltPrograms.clientEnvironment(of: BoardApp.identity).merging(environment) { $1 })
    }
}

extension RunningDaemon {
    /// A real boardd on a private socket and data directory.
    static func board(arguments: [String] = []) throws -> RunningDaemon {
        try start(BoardApp.self, arguments: ["--log-level", "warning"] + arguments)
    }

    /// `board --socket SOCKET arguments...`.
    func board(_ arguments: String...) throws -> ProgramRun {
        try runClient("board", arguments)
    }
}
