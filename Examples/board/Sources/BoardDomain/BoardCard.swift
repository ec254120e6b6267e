/// One card of the board.
public struct BoardCard: Codable, Equatable, Sendable {
    /// A lowercase UUID string, fixed when the `addCard` action is accepted.
    public var id: String
    /// One line: trimmed, non-empty, at most `BoardText.titleLimit` characters.
    public var title: String
    /// More about the card, one line of at most `BoardText.notesLimit` characters; `nil` when none.
    public var notes: String?
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// When the card last entered the `done` column; `nil` while it is in another column.
    public var doneAt: Int64?
    /// Whether the card was archived: it is then out of every column, in `BoardState.archive`.
    public var archived: Bool
    /// When it was archived; `nil` while it is on the board.
    public var archivedAt: Int64?

    /// A card with every field given.
    public init(
        id: String, title: String, notes: String? = nil, createdAt: Int64, doneAt: Int64? = nil, archived: Bool = false,
        archivedAt: Int64? = nil
    ) {
        self.id = id
        self.title = title
        self.notes = notes
        self.createdAt = createdAt
        self.doneAt = doneAt
        self.archived = archived
        self.archivedAt = archivedAt
    }
}
