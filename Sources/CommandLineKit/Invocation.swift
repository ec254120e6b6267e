/// What a command is run with besides its own arguments: the tool it belongs to and the
/// global options given before it. A tool reads its own options from here (for example the
/// socket a client connects to); `CommandLineTool` itself knows nothing of what they mean.
public struct Invocation: Sendable {
    /// The tool that parsed the command line.
    public let tool: CommandLineTool
    private let values: [String: String]
    private let flags: Set<String>

    /// An invocation of `tool` with option `values` (by option name) and `flags` given.
    public init(tool: CommandLineTool, values: [String: String] = [:], flags: Set<String> = []) {
        self.tool = tool
        self.values = values
        self.flags = flags
    }

    /// The value given for the option `name` (`--socket`), nil if it was not given.
    public func value(of name: String) -> String? {
        values[name]
    }

    /// Whether the flag `name` (`--no-autostart`) was given.
    public func isSet(_ name: String) -> Bool {
        flags.contains(name)
    }
}
