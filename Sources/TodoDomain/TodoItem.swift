/// One item of the todo list.
public struct TodoItem: Codable, Equatable, Sendable {
    /// A UUID string, fixed when the `add` action is accepted. Export/import match on it.
    public var id: String
    /// The short number users type: assigned at creation, never reused, never renumbered.
    public var number: Int
    /// Trimmed, non-empty, at most `TodoText.maximumLength` characters.
    public var text: String
    /// Whether the item is done.
    public var completed: Bool
    /// Creation time, milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// When the item was last completed, milliseconds since the Unix epoch; `nil` while open.
    public var completedAt: Int64?

    /// An item with every field given.
    public init(id: String, number: Int, text: String, completed: Bool, createdAt: Int64, completedAt: Int64? = nil) {
        self.id = id
        self.number = number
        self.text = text
        self.completed = completed
        self.createdAt = createdAt
        self.completedAt = completedAt
    }
}
