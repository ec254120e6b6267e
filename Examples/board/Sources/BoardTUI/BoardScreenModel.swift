import BoardDomain

/// What the board view shows: the board (nil until it arrives), the selection, and the status.
public struct BoardScreenModel: Equatable, Sendable {
    /// The board; `nil` while loading.
    public var board: BoardViewModel?
    /// The selected column's position.
    public var column: Int
    /// The selected card's position in that column; `nil` when the column is empty.
    public var card: Int?
    /// The newest state version seen.
    public var version: UInt64?
    /// The last thing worth telling (a refusal, an undo), until the next action.
    public var message: String?
    /// What is wrong with the connection to boardd (`reconnecting (attempt 2): ...`), shown
    /// instead of the counts; nil while connected.
    public var connectionNote: String?

    /// A model with every field given.
    public init(
        board: BoardViewModel?, column: Int = 0, card: Int? = nil, version: UInt64? = nil, message: String? = nil,
        connectionNote: String? = nil
    ) {
        self.board = board
        self.column = column
        self.card = card
        self.version = version
        self.message = message
        self.connectionNote = connectionNote
    }

    /// The selected card, if any.
    public var selectedCard: CardSummary? {
        guard let board, board.columns.indices.contains(column), let card,
            board.columns[column].cards.indices.contains(card)
        else {
            return nil
        }
        return board.columns[column].cards[card]
    }
}
