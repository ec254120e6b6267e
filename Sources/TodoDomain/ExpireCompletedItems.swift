import SyncStore

/// A side effect that removes items that have been done for longer than `retention`.
///
/// It proves the side-effect seam: it reads the published state on a timer of the injected
/// clock, off the store, and sends ordinary `remove` actions back through the daemon's loop. An
/// item reopened or removed in the meantime makes its `remove` fail or not be sent; either way
/// nothing else is touched.
public struct ExpireCompletedItems: SideEffect {
    /// How long an item stays after it was completed, in milliseconds.
    public var retentionMilliseconds: Int64
    /// How often the state is checked, in milliseconds.
    public var intervalMilliseconds: Int64

    /// An expiry of done items after `retentionMilliseconds`, checked every `intervalMilliseconds`.
    public init(retentionMilliseconds: Int64, intervalMilliseconds: Int64) {
        self.retentionMilliseconds = retentionMilliseconds
        self.intervalMilliseconds = intervalMilliseconds
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

    public func run(_ context: SideEffectContext<TodoState, StandardDependencies>) async {
        let clock = context.dependencies.clock
        while !Task.isCancelled {
            let state = context.currentState().state
            let now = clock.now()
            for number in Self.expiredNumbers(in: state, retentionMilliseconds: retentionMilliseconds, now: now) {
                _ = try? await context.dispatch(RemoveItem(number: number, doneBy: now - retentionMilliseconds))
            }
            do {
                try await clock.sleep(milliseconds: intervalMilliseconds)
            } catch {
                return
            }
        }
    }
}
