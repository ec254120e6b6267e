import SyncStore

/// The schedule of `boardd --sweep-after DAYS`: each card in `done` for more than `days` days
/// is archived, with one `archiveDone` for the cards done at the same moment (each an undo
/// step). Derived from the state, so it is durable: a card due while the daemon was down goes
/// once it is back, and each goes exactly once; a card moved out of `done` before its time stays.
public struct ScheduledSweep: Schedule {
    /// Cards done for longer than this are archived.
    public var days: Int

    /// A schedule archiving cards done for more than `days` days (0: as soon as they are done).
    public init(days: Int) {
        self.days = days
    }

    /// The archive of the card done longest ago (and any done at the same moment), due just
    /// after it has been done for `days` days, as `board sweep DAYS` would archive it.
    public func next(in state: BoardState) -> ScheduledAction<BoardState>? {
        let done = state.columns.first { $0.name == BoardState.doneColumn }?.cards ?? []
        guard let oldest = done.compactMap(\.doneAt).min() else { return nil }
        return ScheduledAction(
            due: oldest + Int64(days) * SweepDoneCards.dayMilliseconds + 1,
            action: ArchiveDoneCards(cards: done.filter { $0.doneAt == oldest }.map(\.id), doneBefore: oldest + 1))
    }
}
