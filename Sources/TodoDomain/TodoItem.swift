/// One item of the todo list.
public struct TodoItem: Codable, Equatable, Sendable {
    /// The id, held compactly (see `TodoItemID`: 17 bytes, a tag beside the 16), then
    /// `completed` and whether `completedAt` is set in the byte after its tag, so that the item
    /// is 64 bytes (72 with `completedAt` an optional, whose tag takes a word of its own).
    private var storedID: TodoItemID
    private var flags: Flags
    /// The short number users type: assigned at creation, never reused, never renumbered.
    public var number: Int
    /// Trimmed, non-empty, at most `TodoText.maximumLength` characters.
    public var text: String
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// `completedAt` when it is set, else 0.
    private var completedAtValue: Int64

    /// `completed`, and whether `completedAt` is set.
    private struct Flags: OptionSet, Equatable, Sendable {
        let rawValue: UInt8
        static let completed = Flags(rawValue: 1)
        static let hasCompletedAt = Flags(rawValue: 2)
    }

    /// When the item was last completed, milliseconds since the Unix epoch; `nil` while open.
    public var completedAt: Int64? {
        get { flags.contains(.hasCompletedAt) ? completedAtValue : nil }
        set {
            completedAtValue = newValue ?? 0
            if newValue == nil { flags.remove(.hasCompletedAt) } else { flags.insert(.hasCompletedAt) }
        }
    }

    /// Whether the item is done.
    public var completed: Bool {
        get { flags.contains(.completed) }
        set { if newValue { flags.insert(.completed) } else { flags.remove(.completed) } }
    }

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
        flags = []
        self.number = number
        self.text = text
        self.createdAt = createdAt
        completedAtValue = 0
        self.completed = completed
        self.completedAt = completedAt
    }

    /// The keys of the item's JSON, in the order they are written.
    private enum CodingKeys: String, CodingKey {
        case id, number, text, completed, createdAt, completedAt
    }

    /// Decodes an item from its JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            number: try container.decode(Int.self, forKey: .number),
            text: try container.decode(String.self, forKey: .text),
            completed: try container.decode(Bool.self, forKey: .completed),
            createdAt: try container.decode(Int64.self, forKey: .createdAt),
            completedAt: try container.decodeIfPresent(Int64.self, forKey: .completedAt))
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
