/// One command-line option of a daemon, declared as data: the standard options and an app's
/// own both come from these, and so does `--help`.
public struct DaemonOption: Sendable, Equatable {
    /// The flag, `--clear-done-after`.
    public let name: String
    /// What follows the flag in usage lines (`SECONDS`), empty for a flag without a value.
    public let argument: String
    /// What the option does, one line each, for `--help`.
    public let help: [String]
    /// Whether the option may be given more than once (each value is kept).
    public let repeats: Bool

    /// An option `name ARGUMENT` described by `help`.
    public init(_ name: String, argument: String = "", repeats: Bool = false, help: [String]) {
        self.name = name
        self.argument = argument
        self.repeats = repeats
        self.help = help
    }

    /// Whether the option takes a value.
    var takesValue: Bool { !argument.isEmpty }

    /// `--name ARGUMENT` as usage lines show it.
    var usage: String { argument.isEmpty ? name : "\(name) \(argument)" }
}
