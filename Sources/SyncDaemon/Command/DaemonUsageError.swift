/// A command line a daemon cannot run with: one line saying what is wrong (exit status 2).
public struct DaemonUsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the option.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
