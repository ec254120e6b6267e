/// An option a tool takes before the command (`--socket PATH`, `--no-autostart`), declared as
/// data like the commands: the tool's help, the usage lines, the parser and the completions
/// come from it. `--help` and `--version` are every tool's and need no declaration.
public struct GlobalOption: Sendable {
    /// The option as typed, with its dashes: `--socket`.
    public let name: String
    /// The placeholder of its value (`PATH`), nil for a flag. An option with a value is also
    /// shown in every command's usage line, and may be given as `--name VALUE` or `--name=VALUE`.
    public let value: String?
    /// A few words for the completions (`the daemon socket`).
    public let summary: String
    /// The text of the tool's `--help`, one or more lines.
    public let help: String

    /// An option with these fields.
    public init(_ name: String, value: String? = nil, summary: String, help: String) {
        self.name = name
        self.value = value
        self.summary = summary
        self.help = help
    }

    /// `--socket PATH` or `--no-autostart`.
    var synopsis: String { name + (value.map { " \($0)" } ?? "") }
}
