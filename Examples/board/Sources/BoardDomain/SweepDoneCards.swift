import SyncStore

/// `sweep {days}`, a side effect a client dispatches (`board sweep DAYS`): reads the injected
/// clock once, finds the cards that have been in `done` for more than `days` days
/// (`due(in:now:days:)`), archives them with one `archiveDone` action, and answers how many
/// it archived. A card moved out of `done` between the look and the archive stays.
public struct SweepDoneCards: DispatchedSideEffect {
    public static let wireName = "sweep"
    /// The most days a sweep may look back (about a century).
    public static let maximumDays = 36_500
    /// Milliseconds in a day.
    public static let dayMilliseconds: Int64 = 86_400_000

    /// Cards done for longer than this are archived.
    public var days: Int

    /// What the client is told.
    public struct Result: Codable, Equatable, Sendable {
        /// How many cards were archived.
        public var archived: Int

        /// A result of `archived` cards.
        public init(archived: Int) { self.archived = archived }
    }

    /// A sweep of cards done for more than `days` days.
    public init(days: Int) { self.days = days }

    /// The ids of the cards of `state` that a sweep of `days` at `now` archives: those in
    /// `done` whose `doneAt` is more than `days` days before `now`, top first.
    public static func due(in state: BoardState, now: Int64, days: Int) -> [String] {
        let cutoff = now - Int64(days) * dayMilliseconds
        let done = state.columns.first { $0.name == BoardState.doneColumn }
        return done?.cards.compactMap { card in card.doneAt.flatMap { $0 < cutoff ? card.id : nil } } ?? []
    }

    public func run(_ context: SideEffectContext<BoardState, StandardDependencies>) async throws -> Result {
        guard (0...Self.maximumDays).contains(days) else { throw BoardRejection.invalidDays(days) }
        let now = context.dependencies.clock.now()
        let due = Self.due(in: context.currentState().state, now: now, days: days)
        guard !due.isEmpty else { return Result(archived: 0) }
        _ = try await context.dispatch(
            ArchiveDoneCards(cards: due, doneBefore: now - Int64(days) * Self.dayMilliseconds))
        let archived = Set(context.currentState().state.archive.map(\.id))
        return Result(archived: due.filter(archived.contains).count)
    }
}
