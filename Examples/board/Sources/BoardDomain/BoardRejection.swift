/// Why the board refused an action. The description is the one sentence users see.
public enum BoardRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// No column has this name.
    case noSuchColumn(String)
    /// No card has this id.
    case noSuchCard(String)
    /// The card (by title) is archived: it can no longer be moved, edited or archived.
    case cardArchived(String)
    /// The column holds as many cards as its work-in-progress limit allows.
    case columnAtLimit(column: String, limit: Int)
    /// A limit lower than the cards the column holds already.
    case limitBelowCards(column: String, cards: Int, limit: Int)
    /// A limit below 1 (no limit is `null`).
    case invalidLimit(Int)
    /// A position outside the column (0 is the top; the column's card count is the bottom).
    case positionOutOfRange(position: Int, column: String, cards: Int)
    /// A column position outside the board (0 is the leftmost; the column count the right end).
    case columnPositionOutOfRange(position: Int, columns: Int)
    /// A column with this name exists already.
    case columnExists(String)
    /// Text that breaks the rules for `field` (`title`, `notes`, `column name`): why.
    case invalidText(field: String, reason: String)
    /// A sweep's age below 0 days or above `SweepDoneCards.maximumDays`.
    case invalidDays(Int)
    /// `undo` found no change left to revert.
    case nothingToUndo
    /// The change an `undo` named (`undoing`) is no longer the latest: `latest` landed first.
    case undoOvertaken(undoing: String, latest: String)
    /// The action was dispatched without the values fixed at acceptance.
    case notAccepted

    /// One human-readable sentence.
    public var description: String {
        switch self {
        case .noSuchColumn(let name): return "no column \(name)"
        case .noSuchCard(let id): return "no card \(id)"
        case .cardArchived(let title): return "card \"\(title)\" is archived"
        case .columnAtLimit(let column, let limit): return "column \(column) is at its limit of \(limit)"
        case .limitBelowCards(let column, let cards, let limit):
            return "column \(column) holds \(cards) cards, more than a limit of \(limit)"
        case .invalidLimit(let limit): return "a limit must be at least 1 (got \(limit)); null removes it"
        case .positionOutOfRange(let position, let column, let cards):
            return "position \(position) is outside column \(column), which takes positions 0 to \(cards)"
        case .columnPositionOutOfRange(let position, let columns):
            return "column position \(position) is outside the board, which takes positions 0 to \(columns)"
        case .columnExists(let name): return "there is a column \(name) already"
        case .invalidText(let field, let reason): return "the \(field) \(reason)"
        case .invalidDays(let days): return "a sweep takes 0 to \(SweepDoneCards.maximumDays) days (got \(days))"
        case .nothingToUndo: return "nothing to undo"
        case .undoOvertaken(let undoing, let latest):
            return "nothing was undone: the undo was for \(undoing), but a newer change (\(latest)) landed first"
        case .notAccepted: return "the action was not accepted by the daemon"
        }
    }
}
