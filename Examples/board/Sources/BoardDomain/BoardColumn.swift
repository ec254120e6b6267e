/// One column of the board: its name, its work-in-progress limit, and its cards in order.
public struct BoardColumn: Codable, Equatable, Sendable {
    /// The name users type (`todo`, `doing`, `done`, or one they added); unique on the board.
    public var name: String
    /// The most cards the column may hold; `nil` for no limit.
    public var limit: Int?
    /// The cards, top first. Archived cards are not here.
    public var cards: [BoardCard]

    /// A column with every field given.
    public init(name: String, limit: Int? = nil, cards: [BoardCard] = []) {
        self.name = name
        self.limit = limit
        self.cards = cards
    }

    /// Whether one more card would break the limit.
    var isFull: Bool {
        limit.map { cards.count >= $0 } ?? false
    }
}
