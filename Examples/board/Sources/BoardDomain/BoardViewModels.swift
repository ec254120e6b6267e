import SyncStore

/// A card as a column lists it: enough to draw it and to act on it.
public struct CardSummary: Codable, Equatable, Sendable {
    /// The card's id.
    public var id: String
    /// The card's title.
    public var title: String
    /// Whether the card has notes (the `card` view model has them).
    public var hasNotes: Bool

    /// A summary with every field given.
    public init(id: String, title: String, hasNotes: Bool) {
        self.id = id
        self.title = title
        self.hasNotes = hasNotes
    }

    /// The summary of `card`.
    public init(_ card: BoardCard) {
        self.init(id: card.id, title: card.title, hasNotes: card.notes != nil)
    }
}

/// A column as the board shows it.
public struct ColumnSummary: Codable, Equatable, Sendable {
    /// The column's name.
    public var name: String
    /// Its work-in-progress limit, if any.
    public var limit: Int?
    /// Its cards, top first.
    public var cards: [CardSummary]

    /// A summary with every field given.
    public init(name: String, limit: Int?, cards: [CardSummary]) {
        self.name = name
        self.limit = limit
        self.cards = cards
    }

    /// The summary of `column`.
    public init(_ column: BoardColumn) {
        self.init(name: column.name, limit: column.limit, cards: column.cards.map(CardSummary.init))
    }
}

/// `board {}`: every column, left to right, with its cards, and how many cards are archived.
public struct BoardViewModel: ViewModel {
    public static let wireName = "board"

    /// The columns, left to right.
    public var columns: [ColumnSummary]
    /// Archived cards.
    public var archivedCount: Int

    /// A model with every field given.
    public init(columns: [ColumnSummary], archivedCount: Int) {
        self.columns = columns
        self.archivedCount = archivedCount
    }

    public init(state: BoardState, params: NoParams) {
        self.init(columns: state.columns.map(ColumnSummary.init), archivedCount: state.archive.count)
    }
}

extension BoardViewModel: DiffableViewModel {
    /// Column changes where columns changed, and the archived count when it did: a move is a
    /// replaced column or two.
    public func changes(from old: BoardViewModel) -> [ModelChange] {
        var changes = ModelChange.arrayChanges(from: old.columns, to: columns, at: ["columns"])
        if archivedCount != old.archivedCount {
            changes.append(.replace(path: ["archivedCount"], value: archivedCount))
        }
        return changes
    }
}

/// `column {column}`: one column with its cards, or no model (`null`) when there is no such column.
public struct ColumnViewModel: ViewModel {
    public static let wireName = "column"

    /// `{column}`.
    public struct Params: Codable, Hashable, Sendable {
        /// The column's name.
        public var column: String

        /// Params for column `column`.
        public init(column: String) { self.column = column }
    }

    /// The column.
    public var column: ColumnSummary

    public init?(state: BoardState, params: Params) {
        guard let column = state.columns.first(where: { $0.name == params.column }) else { return nil }
        self.column = ColumnSummary(column)
    }

    public init(from decoder: any Decoder) throws {
        column = try ColumnSummary(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try column.encode(to: encoder)
    }
}

/// `card {card}`: one card with all its fields and where it is (its column, or none when
/// archived), or no model (`null`) when there is no such card.
public struct CardViewModel: ViewModel {
    public static let wireName = "card"

    /// `{card}`.
    public struct Params: Codable, Hashable, Sendable {
        /// The card's id.
        public var card: String

        /// Params for card `card`.
        public init(card: String) { self.card = card }
    }

    /// The card.
    public var card: BoardCard
    /// The column it is in; `nil` when archived.
    public var column: String?
    /// Its position in that column (0 is the top); `nil` when archived.
    public var position: Int?

    public init?(state: BoardState, params: Params) {
        if let location = state.location(of: params.card) {
            card = state.columns[location.column].cards[location.position]
            column = state.columns[location.column].name
            position = location.position
        } else if let archived = state.archive.first(where: { $0.id == params.card }) {
            card = archived
        } else {
            return nil
        }
    }
}

/// `undo {}`: the change the next `undo` would revert, so that a client can name it in its
/// `undo` (`UndoBoardChange(reverting:)`) and never revert one it did not see.
public struct BoardUndoViewModel: ViewModel {
    public static let wireName = "undo"

    /// The newest change not yet undone; `nil` when there is nothing to undo.
    public var next: BoardUndoTarget?

    public init(state: BoardState, params: NoParams) {
        next = state.undoStack.last.map { BoardUndoTarget(change: $0.change, summary: $0.summary) }
    }
}

/// A change `undo` can revert: its id and what it did, for people.
public struct BoardUndoTarget: Codable, Equatable, Sendable {
    /// The id of the action that made the change.
    public var change: Int?
    /// What it did: `move "write the spec" to doing`.
    public var summary: String

    /// A target with both fields given.
    public init(change: Int?, summary: String) {
        self.change = change
        self.summary = summary
    }
}
