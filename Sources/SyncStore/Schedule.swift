/// Actions the daemon dispatches when their time comes, derived from the state: what is due is
/// a pure function of the state (and of the schedule's own settings), so a schedule is as
/// durable as the state. After a restart or a crash the daemon asks again and dispatches what
/// is due then; once the action is durable the state no longer lists it, so it runs exactly
/// once. On a shared log only the leader dispatches them. A test store runs them on its test
/// clock.
///
/// The action dispatched must change the state so that `next(in:)` moves on (or be refused,
/// after which it is not dispatched again until the state changes). `next(in:)` runs once per
/// new version: keep it cheap.
public protocol Schedule<State>: Sendable {
    /// The state the schedule is derived from.
    associatedtype State: Sendable

    /// The earliest action due in `state`, and when; `nil` when nothing is scheduled.
    func next(in state: State) -> ScheduledAction<State>?
}

/// An action and the time it is due.
public struct ScheduledAction<State>: Sendable {
    /// When it is due, in milliseconds since the Unix epoch, by the app's clock.
    public var due: Int64
    /// What is dispatched then.
    public var action: any Action<State>

    /// `action`, due at `due`.
    public init(due: Int64, action: any Action<State>) {
        self.due = due
        self.action = action
    }
}
