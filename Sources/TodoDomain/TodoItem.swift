/// One item of the todo list.
public struct TodoItem: Codable, Equatable, Sendable {
    /// The id, held compactly (see `TodoItemID`: 17 bytes, a tag beside the 16). `completed`
    /// comes last, beside `completedAt`'s tag, so that the item stays 72 bytes (80 otherwise).
    private var storedID: TodoItemID
    /// The short number users type: assigned at creation, never reused, never renumbered.
    public var number: Int
    /// Trimmed, non-empty, at most `TodoText.maximumLength` characters.
    public var text: String
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// When the item was last completed, milliseconds since the Unix epoch; `nil` while open.
    public var completedAt: Int64?
    /// Whether the item is done.
    public var completed: Bool

    /// A UUID string, fixed when the `add` action is accepted. Export/import match on it.
    /// Each read spells it anew: a loop that compares ids compares `compactID`.
    public var id: String {
        get { storedID.text }
        set { storedID = TodoItemID(newValue) }
    }

    /// The id as the item holds it: equal for two items when their ids are, and cheaper to
    /// compare and hash than `id`.
    var compactID: TodoItemID { storedID }

    /// An item with every field given.
    public init(id: String, number: Int, text: String, completed: Bool, createdAt: Int64, completedAt: Int64? = nil) {
        storedID = TodoItemID(id)
        self.number = number
        self.text = text
        self.completed = completed
        self.createdAt = createdAt
        self.completedAt = completedAt
    }

    /// The keys of the item's JSON, in the order they are written.
    private enum CodingKeys: String, CodingKey {
        case id, number, text, completed, createdAt, completedAt
    }

    /// Decodes an item from its JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storedID = TodoItemID(try container.decode(String.self, forKey: .id))
        number = try container.decode(Int.self, forKey: .number)
        text = try container.decode(String.self, forKey: .text)
        completed = try container.decode(Bool.self, forKey: .completed)
        createdAt = try container.decode(Int64.self, forKey: .createdAt)
        completedAt = try container.decodeIfPresent(Int64.self, forKey: .completedAt)
    }

    /// Encodes the item as a JSON object, its id as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(number, forKey: .number)
        try container.encode(text, forKey: .text)
        try container.encode(completed, forKey: .completed)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
    }
}
