import SyncStore

/// The schedule of `todod --clear-done-after`: each item done for longer than `retention` is
/// removed, one `remove` each (with `doneBy`, so an item reopened meanwhile stays). Derived
/// from the state, so it is durable: an item due while the daemon was down goes once it is
/// back, and each goes exactly once.
public struct ClearDoneItems: Schedule {
    /// How long an item stays after it was completed, in milliseconds.
    public var retentionMilliseconds: Int64

    /// A schedule removing items done for longer than `retentionMilliseconds`.
    public init(retentionMilliseconds: Int64) {
        self.retentionMilliseconds = retentionMilliseconds
    }

    /// The removal of the item done longest ago, due `retentionMilliseconds` after it was done.
    public func next(in state: TodoState) -> ScheduledAction<TodoState>? {
        var oldest: (number: Int, completedAt: Int64)?
        for item in state.items where item.completed {
            guard let completedAt = item.completedAt, completedAt < oldest?.completedAt ?? .max else { continue }
            oldest = (item.number, completedAt)
        }
        guard let oldest else { return nil }
        return ScheduledAction(
            due: oldest.completedAt + retentionMilliseconds,
            action: RemoveItem(number: oldest.number, doneBy: oldest.completedAt))
    }

    /// The numbers of the items of `state` done for more than `retentionMilliseconds` at `now`
    /// (milliseconds since the Unix epoch).
    public static func expiredNumbers(in state: TodoState, retentionMilliseconds: Int64, now: Int64) -> [Int] {
        let deadline = now - retentionMilliseconds
        return state.items.compactMap { item in
            guard item.completed, let completedAt = item.completedAt, completedAt <= deadline else { return nil }
            return item.number
        }
    }
}
