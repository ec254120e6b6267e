import SyncStore

/// A side effect that removes items that have been done for longer than `retention`.
///
/// It proves the side-effect seam: it reads the published state on a timer, off the store, and
/// sends ordinary `remove` actions back through the daemon's loop. An item reopened or removed
/// in the meantime makes its `remove` fail or not be sent; either way nothing else is touched.
public struct ExpireCompletedItems: SideEffect {
    /// How long an item stays after it was completed, in milliseconds.
    public var retentionMilliseconds: Int64
    /// How often the state is checked, in milliseconds.
    public var intervalMilliseconds: Int64
    /// The clock, in milliseconds since the Unix epoch.
    public var now: @Sendable () -> Int64

    /// An expiry of done items after `retentionMilliseconds`, checked every `intervalMilliseconds`.
    public init(
        retentionMilliseconds: Int64,
        intervalMilliseconds: Int64,
        now: @escaping @Sendable () -> Int64 = { AcceptanceContext.now().millisecondsSinceEpoch }
    ) {
        self.retentionMilliseconds = retentionMilliseconds
        self.intervalMilliseconds = intervalMilliseconds
        self.now = now
    }

    /// The numbers of the items that are due for removal in `state`.
    public func expiredNumbers(in state: TodoState) -> [Int] {
        let deadline = now() - retentionMilliseconds
        return state.items.compactMap { item in
            guard item.completed, let completedAt = item.completedAt, completedAt <= deadline else { return nil }
            return item.number
        }
    }

    public func run(_ context: SideEffectContext<TodoState>) async {
        while !Task.isCancelled {
            for number in expiredNumbers(in: context.currentState().state) {
                _ = try? await context.dispatch(RemoveItem(number: number))
            }
            try? await Task.sleep(for: .milliseconds(intervalMilliseconds))
        }
    }
}
