/// Something the terminal reported: a key, a new size, a change of focus, or the end of input.
public enum TerminalEvent: Hashable, Sendable {
    /// A key was pressed.
    case key(Key)
    /// The window now has this size (after SIGWINCH).
    case resize(Size)
    /// The window gained (`true`) or lost focus (terminals that report it).
    case focus(Bool)
    /// Standard input ended: the terminal is gone.
    case inputClosed
}
