/// One command of a tool, declared as data: the command table, `--help` and the shell
/// completions all come from these fields.
public struct Command: Sendable {
    /// The word that selects the command.
    public let name: String
    /// Arguments after the name, as shown in usage lines: options (`[--open|--done] [--json]`),
    /// lower-case literal choices (`bash|zsh|fish`) and upper-case placeholders (`TEXT...`,
    /// `FILE`); the completions read them from here.
    public let arguments: String
    /// One line for the command table.
    public let summary: String
    /// More lines for `TOOL NAME --help` (may be empty).
    public let details: String
    /// Runs the command with the words after its name (`--help` already handled).
    public let run: @Sendable (Invocation, [String]) async throws(CLIError) -> Void

    /// A command with these fields.
    public init(
        name: String, arguments: String, summary: String, details: String,
        run: @escaping @Sendable (Invocation, [String]) async throws(CLIError) -> Void
    ) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.details = details
        self.run = run
    }

    /// Whether the command takes a file argument (its arguments name `FILE`).
    public var takesFile: Bool { arguments.contains("FILE") }

    /// The words a completion offers after the command: options and lower-case literal
    /// choices read from `arguments`; placeholders (upper case) are left out.
    public var completionWords: [String] {
        arguments.split(whereSeparator: { " []|".contains($0) }).map(String.init).filter { word in
            word.hasPrefix("-") || word.allSatisfy(\.isLowercase)
        }
    }
}
