import SyncStore

/// An action the store has applied, as the log records it: the version it produced, its wire
/// name, and the action with the values fixed at acceptance.
public struct AcceptedAction<State>: Sendable {
    /// The version this action produced.
    public let version: UInt64
    /// The action's wire name.
    public let name: String
    /// The action, as applied.
    public let action: any Action<State>
    /// The impure inputs fixed when it was accepted.
    public let context: AcceptanceContext
}

/// The seam between the store and durability: every applied action goes through here before any
/// client may see its effects (its ack, or an update reflecting it).
///
/// Calls and callbacks happen on the loop thread. An implementation may complete later (a commit
/// on another thread, delivered back through the loop); the server holds acks and updates until
/// it does. A journal on disk plugs in here without the store or the network code changing.
public protocol ActionLog<State>: AnyObject {
    /// The state of the actions recorded.
    associatedtype State

    /// Records `action` and calls `whenDurable` once it may be shown to clients.
    func record(_ action: AcceptedAction<State>, whenDurable: @escaping () -> Void)
}

/// The log of a daemon that keeps nothing: actions are "durable" as soon as they are applied,
/// and a restart starts from the initial state.
public final class VolatileLog<State>: ActionLog {
    /// A log that records nothing.
    public init() {}

    public func record(_ action: AcceptedAction<State>, whenDurable: @escaping () -> Void) {
        whenDurable()
    }
}
