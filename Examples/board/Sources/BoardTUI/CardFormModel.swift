import TerminalUI

/// What the add-card form shows.
public struct CardFormModel: Equatable, Sendable {
    /// `Add a card to doing`.
    public var title: String
    /// The title being typed.
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
