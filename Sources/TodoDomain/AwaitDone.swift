import SyncStore

/// `awaitDone {number}`, a side effect a client dispatches: answers once item `number` is done
/// (at once if it is), or gone. It checks the state every `pollMilliseconds` of the injected
/// clock, and ends with the daemon (its client then gets a `cancelled` error).
public struct AwaitDone: DispatchedSideEffect {
    public static let wireName = "awaitDone"

    /// The item waited for.
    public var number: Int

    /// What the client is told.
    public struct Result: Codable, Equatable, Sendable {
        /// The item's text, as it was done; `nil` when the item was removed instead.
        public var text: String?

        /// A result naming the item's `text`.
        public init(text: String?) { self.text = text }
    }

    /// How often the state is checked.
    public static let pollMilliseconds: Int64 = 100

    /// A wait for item `number`.
    public init(number: Int) { self.number = number }

    public func run(_ context: SideEffectContext<TodoState, StandardDependencies>) async throws -> Result {
        let state = context.currentState().state
        guard let index = try? state.index(of: number) else { throw TodoRejection.noSuchItem(number) }
        var item = state.items[index]
        while !item.completed {
            try await context.dependencies.clock.sleep(milliseconds: Self.pollMilliseconds)
            let latest = context.currentState().state
            guard let index = try? latest.index(of: number), latest.items[index].compactID == item.compactID else {
                return Result(text: nil)
            }
            item = latest.items[index]
        }
        return Result(text: item.text)
    }
}
