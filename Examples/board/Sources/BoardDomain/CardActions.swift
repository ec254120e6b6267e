import SyncStore

/// `addCard {title, notes?, column?}`: puts a new card at the bottom of `column` (default: the
/// first column). Refused when the column is at its work-in-progress limit.
///
/// `id` and `createdAt` are fixed at acceptance (anything a client sends there is replaced).
public struct AddCard: Action {
    public static let wireName = "addCard"
    /// The card's title; trimmed when applied.
    public var title: String
    /// The card's notes, if any; trimmed when applied, empty means none.
    public var notes: String?
    /// The column it goes into; `nil` for the first column.
    public var column: String?
    /// Fixed at acceptance.
    public var id: String?
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var createdAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// An add action for a card `title` in `column`.
    public init(title: String, notes: String? = nil, column: String? = nil) {
        self.title = title
        self.notes = notes
        self.column = column
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        id = context.identifier.uuidString.lowercased()
        createdAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        guard let id, let createdAt else { throw BoardRejection.notAccepted }
        let title = try BoardText.validated(title, field: "title", limit: BoardText.titleLimit)
        let notes = try notes.flatMap { notes throws(BoardRejection) in try validatedNotes(notes) }
        guard !state.columns.isEmpty else { throw BoardRejection.noSuchColumn(column ?? "") }
        let index = try column.map(state.columnIndex) ?? 0
        let target = state.columns[index]
        if target.isFull, let limit = target.limit {
            throw BoardRejection.columnAtLimit(column: target.name, limit: limit)
        }
        let card = BoardCard(
            id: id, title: title, notes: notes, createdAt: createdAt,
            doneAt: target.name == BoardState.doneColumn ? createdAt : nil)
        state.columns[index].cards.append(card)
        state.pushUndo(describe("add", card), [.restoreColumn(target)], change: change)
    }
}

/// `moveCard {card, column?, position?}`: moves a card to `position` (0 is the top; default:
/// the bottom) of `column` (default: its own column). Moving into another column is refused
/// when that column is at its limit; moving within a column never is. A card entering `done`
/// gets its `doneAt` (the acceptance time); leaving it, loses it.
public struct MoveCard: Action {
    public static let wireName = "moveCard"
    /// The card's id.
    public var card: String
    /// Where it goes; `nil` for its own column.
    public var column: String?
    /// Its place there, counted once it has left its old place; `nil` for the bottom.
    public var position: Int?
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var movedAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// A move of `card` to `position` in `column`.
    public init(card: String, column: String? = nil, position: Int? = nil) {
        self.card = card
        self.column = column
        self.position = position
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        movedAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        guard let movedAt else { throw BoardRejection.notAccepted }
        let from = try state.activeLocation(of: card)
        let to = try column.map(state.columnIndex) ?? from.column
        let source = state.columns[from.column]
        let target = state.columns[to]
        let room = to == from.column ? target.cards.count - 1 : target.cards.count
        let position = self.position ?? room
        guard (0...room).contains(position) else {
            throw BoardRejection.positionOutOfRange(position: position, column: target.name, cards: room)
        }
        if to != from.column, target.isFull, let limit = target.limit {
            throw BoardRejection.columnAtLimit(column: target.name, limit: limit)
        }
        guard to != from.column || position != from.position else { return }
        var moved = state.columns[from.column].cards.remove(at: from.position)
        if to != from.column {
            moved.doneAt = target.name == BoardState.doneColumn ? movedAt : nil
        }
        state.columns[to].cards.insert(moved, at: position)
        let restores = to == from.column ? [source] : [source, target]
        state.pushUndo(
            describe("move", moved) + " to \(target.name)", restores.map { .restoreColumn($0) }, change: change)
    }
}

/// `editCard {card, title?, notes?}`: replaces a card's title and notes; an omitted field is
/// kept, empty notes remove them. Editing to the same text changes nothing.
public struct EditCard: Action {
    public static let wireName = "editCard"
    /// The card's id.
    public var card: String
    /// The new title; `nil` keeps it.
    public var title: String?
    /// The new notes; `nil` keeps them, an empty or blank string removes them.
    public var notes: String?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// An edit of `card`.
    public init(card: String, title: String? = nil, notes: String? = nil) {
        self.card = card
        self.title = title
        self.notes = notes
    }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        let location = try state.activeLocation(of: card)
        let column = state.columns[location.column]
        let before = column.cards[location.position]
        var after = before
        if let title { after.title = try BoardText.validated(title, field: "title", limit: BoardText.titleLimit) }
        if let notes { after.notes = try validatedNotes(notes) }
        guard after != before else { return }
        state.columns[location.column].cards[location.position] = after
        state.pushUndo(describe("edit", before), [.restoreColumn(column)], change: change)
    }
}

/// `archiveCard {card}`: takes a card off the board into the archive.
public struct ArchiveCard: Action {
    public static let wireName = "archiveCard"
    /// The card's id.
    public var card: String
    /// Fixed at acceptance, milliseconds since the Unix epoch.
    public var archivedAt: Int64?
    /// Fixed at acceptance: the id of the undo step this action records.
    public var change: Int?

    /// An archive action for `card`.
    public init(card: String) { self.card = card }

    public mutating func accept(_ context: AcceptanceContext, state: BoardState) {
        archivedAt = context.millisecondsSinceEpoch
        change = context.changeID
    }

    public func update(_ state: inout BoardState) throws {
        guard let archivedAt else { throw BoardRejection.notAccepted }
        let location = try state.activeLocation(of: card)
        let column = state.columns[location.column]
        var archived = state.columns[location.column].cards.remove(at: location.position)
        archived.archived = true
        archived.archivedAt = archivedAt
        state.archive.append(archived)
        state.pushUndo(
            describe("archive", archived), [.restoreColumn(column), .unarchive(ids: [archived.id])], change: change)
    }
}

/// Notes trimmed, or `nil` when blank (none), or a rejection.
func validatedNotes(_ notes: String) throws(BoardRejection) -> String? {
    guard notes.contains(where: { !$0.isWhitespace }) else { return nil }
    return try BoardText.validated(notes, field: "notes", limit: BoardText.notesLimit)
}
