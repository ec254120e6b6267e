/// What can go wrong setting up the terminal.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, no terminal at all).
    case notATerminal(descriptor: Int32)
    /// A terminal call failed: the call, and `strerror` of its errno.
    case systemCall(String, String)

    /// One line for users.
    public var description: String {
        switch self {
        case .notATerminal(let descriptor):
            return "standard \(descriptor == 0 ? "input" : "output") is not a terminal; a full-screen program needs one"
        case .systemCall(let call, let reason):
            return "\(call) failed on the terminal: \(reason)"
        }
    }
}
