/// What a `TextFormView` shows: a one-line form that sends what was typed.
public struct TextFormModel: Equatable, Sendable {
    /// The box's title: `Add item`, `Edit item 3`.
    public var title: String
    /// The text being typed.
    public var input: TextInput
    /// Why the last attempt was refused.
    public var error: String?
    /// Whether the text is being sent (keys other than Esc wait).
    public var isSending: Bool
    /// What Enter does, in the keys line: `save` shows `Enter save   Esc cancel`.
    public var submitLabel: String
    /// What the keys line says while sending: `saving...`.
    public var sendingLabel: String

    /// A form with every field given.
    public init(
        title: String, input: TextInput, error: String? = nil, isSending: Bool = false, submitLabel: String = "save",
        sendingLabel: String = "saving..."
    ) {
        self.title = title
        self.input = input
        self.error = error
        self.isSending = isSending
        self.submitLabel = submitLabel
        self.sendingLabel = sendingLabel
    }
}
