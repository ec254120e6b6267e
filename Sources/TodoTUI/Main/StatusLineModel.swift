import SyncTerminalUI
import TodoDomain

/// What the status line at the bottom shows.
public struct StatusLineModel: Equatable, Sendable {
    /// The connection to the daemon.
    public var connection: DisplayedConnectionState
    /// The newest state version seen, if any.
    public var version: UInt64?
    /// Open items in the whole list.
    public var openCount: Int
    /// Done items in the whole list.
    public var doneCount: Int
    /// The last thing worth telling (a refusal, an undo), until the next action.
    public var message: String?

    /// A status line with every field given.
    public init(
        connection: DisplayedConnectionState, version: UInt64? = nil, openCount: Int = 0, doneCount: Int = 0,
        message: String? = nil
    ) {
        self.connection = connection
        self.version = version
        self.openCount = openCount
        self.doneCount = doneCount
        self.message = message
    }
}
