import TerminalUI

/// What the add and edit forms show.
public struct ItemFormModel: Equatable, Sendable {
    /// `Add item` or `Edit item 3`.
    public var title: String
    /// The text being typed.
    public var input: TextInput
    /// Why the last attempt was refused.
    public var error: String?
    /// Whether the daemon is being asked (keys other than Esc wait).
    public var isSending: Bool

    /// A form with every field given.
    public init(title: String, input: TextInput, error: String? = nil, isSending: Bool = false) {
        self.title = title
        self.input = input
        self.error = error
        self.isSending = isSending
    }
}
