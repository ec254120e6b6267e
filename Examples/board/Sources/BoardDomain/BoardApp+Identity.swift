import SyncStore

extension BoardApp {
    /// The board app's names: the `board` client, the `boardd` daemon, `$BOARD_SOCKET`,
    /// `~/.local/state/board`, `boardd.socket`.
    public static let identity = AppIdentity(name: "board", version: BoardRelease.version)
}
