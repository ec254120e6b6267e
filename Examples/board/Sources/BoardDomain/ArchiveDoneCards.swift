import SyncStore

/// `archiveDone {cards, doneBefore}`: archives the cards named that are still in `done` and
/// entered it before `doneBefore` (milliseconds since the Unix epoch); the others (moved out,
/// archived, or done again since) are left alone. What the `sweep` side effect dispatches,
/// with the cards it found due by the injected clock. One undo step; nothing to archive
/// changes nothing and records no step.
///
/// Everything that decides which cards go is in the payload, so a replay archives the same
/// cards; `archivedAt` and `change` are fixed at acceptance.
public struct ArchiveDoneCards: Action {
    public static let wireName = "archiveDone"

    /// The ids of the cards to archive, top first.
    public var cards: [String]
    /// Only cards whose `doneAt` is before this go.
    public var doneBefore: Int64
    /// Fixed at acceptance: when they were archived, milliseconds since the Unix epoch.
    public var archivedAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// An archive of `cards`, those of them done before `doneBefore`.
    public init(cards: [String], doneBefore: Int64) {
        self.cards = cards
        self.doneBefore = doneBefore
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        archivedAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        guard let archivedAt else { throw BoardRejection.notAccepted }
        guard let index = state.columns.firstIndex(where: { $0.name == BoardState.doneColumn }) else { return }
        let named = Set(cards)
        let before = state.columns[index]
        let going = before.cards.filter { card in named.contains(card.id) && card.doneAt.map { $0 < doneBefore } == true
        }
        guard !going.isEmpty else { return }
        let ids = Set(going.map(\.id))
        for var card in going {
            card.archived = true
            card.archivedAt = archivedAt
            state.archive.append(card)
        }
        state.columns[index].cards.removeAll { ids.contains($0.id) }
        let summary = "sweep \(going.count) done card\(going.count == 1 ? "" : "s")"
        state.pushUndo(summary, [.restoreColumn(before), .unarchive(ids: going.map(\.id))], change: change)
    }
}
