import SyncStore

/// `expireDone {olderThanSeconds}`, a side effect a client dispatches: removes every item done
/// more than `olderThanSeconds` ago by the injected clock, one `remove` action each (with
/// `doneBy`, so an item reopened meanwhile stays), and answers how many it removed. An item
/// reopened or removed meanwhile is skipped, not counted.
public struct ExpireDone: DispatchedSideEffect {
    public static let wireName = "expireDone"

    /// How long an item must have been done to go, in seconds (0: every done item).
    public var olderThanSeconds: Int64

    /// What the client is told.
    public struct Result: Codable, Equatable, Sendable {
        /// How many items were removed.
        public var removed: Int

        /// A result of `removed` items.
        public init(removed: Int) { self.removed = removed }
    }

    /// An expiry of the items done more than `olderThanSeconds` ago.
    public init(olderThanSeconds: Int64) { self.olderThanSeconds = olderThanSeconds }

    public func run(_ context: SideEffectContext<TodoState, StandardDependencies>) async throws -> Result {
        guard (0...Self.maximumSeconds).contains(olderThanSeconds) else {
            throw TodoRejection.invalidAge(olderThanSeconds)
        }
        let now = context.dependencies.clock.now()
        let retention = olderThanSeconds * 1000
        let numbers = ClearDoneItems.expiredNumbers(
            in: context.currentState().state, retentionMilliseconds: retention, now: now)
        var removed = 0
        for number in numbers {
            do {
                _ = try await context.dispatch(RemoveItem(number: number, doneBy: now - retention))
                removed += 1
            } catch {
                // Removed, or reopened, by someone else meanwhile: not ours to count.
                try Task.checkCancellation()
            }
        }
        return Result(removed: removed)
    }

    /// The longest age asked for: 100 years.
    public static let maximumSeconds: Int64 = 100 * 365 * 86_400
}
