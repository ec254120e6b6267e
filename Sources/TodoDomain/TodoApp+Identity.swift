import SyncStore

extension TodoApp {
    /// The todo app's names: the `todo` client, the `todod` daemon, `$TODO_SOCKET`,
    /// `~/.local/state/todo`, `todod.socket`.
    public static let identity = AppIdentity(name: "todo", version: "0.1.0")
}
