import SyncStore

/// `sweep {days}`: archives every card that has been in `done` for more than `days` days.
///
/// The clock is read once, at acceptance (`sweptAt`), so a replay archives the same cards. The
/// cards due are `SweepDoneCards.due(in:now:days:)`, a pure function a side effect can call on
/// the state it reads to decide whether a sweep is worth dispatching. One sweep is one undo step.
public struct SweepDoneCards: Action {
    public static let wireName = "sweep"
    /// The most days a sweep may look back (about a century).
    public static let maximumDays = 36_500
    /// Milliseconds in a day.
    public static let dayMilliseconds: Int64 = 86_400_000

    /// Cards done for longer than this are archived.
    public var days: Int
    /// Fixed at acceptance: the time the age is measured at, milliseconds since the Unix epoch.
    public var sweptAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// A sweep of cards done for more than `days` days.
    public init(days: Int) { self.days = days }

    /// The ids of the cards of `state` that a sweep of `days` at `now` archives: those in
    /// `done` whose `doneAt` is more than `days` days before `now`, top first.
    public static func due(in state: BoardState, now: Int64, days: Int) -> [String] {
        let cutoff = now - Int64(days) * dayMilliseconds
        let done = state.columns.first { $0.name == BoardState.doneColumn }
        return done?.cards.compactMap { card in card.doneAt.flatMap { $0 < cutoff ? card.id : nil } } ?? []
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        sweptAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        guard let sweptAt else { throw BoardRejection.notAccepted }
        guard (0...Self.maximumDays).contains(days) else { throw BoardRejection.invalidDays(days) }
        let due = Set(Self.due(in: state, now: sweptAt, days: days))
        guard !due.isEmpty, let index = state.columns.firstIndex(where: { $0.name == BoardState.doneColumn }) else { return }
        let before = state.columns[index]
        for var card in before.cards where due.contains(card.id) {
            card.archived = true
            card.archivedAt = sweptAt
            state.archive.append(card)
        }
        state.columns[index].cards.removeAll { due.contains($0.id) }
        let summary = "sweep \(due.count) done card\(due.count == 1 ? "" : "s")"
        state.pushUndo(summary, [.restoreColumn(before), .unarchive(ids: before.cards.map(\.id).filter(due.contains))], change: change)
    }
}
