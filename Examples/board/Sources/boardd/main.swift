import BoardDomain
import SyncDaemon

/// `boardd`: the board daemon, the framework's standard daemon.
DaemonCommand<BoardApp>(summary: "Serves the kanban board.").run()
