/// A command-line tool made of a table of commands: `TOOL [OPTIONS] COMMAND [ARGUMENTS]`.
///
/// It parses the global options, answers `--help` (the tool's and each command's) and
/// `--version`, finds the command and runs it; a failure is one line `TOOL: message` on
/// standard error and the `CLIError`'s exit code. It never ends the process: `main` returns
/// the exit code and the executable exits with it.
///
///     @main struct Tool {
///         static let tool = CommandLineTool(name: "board", version: "board 1.0", commands: [.show, .completions])
///         static func main() async { exit(await tool.main(Array(CommandLine.arguments.dropFirst()))) }
///     }
public struct CommandLineTool: Sendable {
    /// The program's name, as typed and in messages.
    public let name: String
    /// What `--version` prints (one line, without the newline).
    public let version: String
    /// One line saying what the tool is for: its manual page's NAME line (may be empty).
    public let summary: String
    /// The options taken before the command, in the order the help lists them.
    public let options: [GlobalOption]
    /// Every command, in the order the help lists them.
    public let commands: [Command]
    /// Paragraphs the tool's help ends with (notes, exit statuses); may be empty.
    public let epilogue: String

    /// A tool with these parts.
    public init(
        name: String, version: String, summary: String = "", options: [GlobalOption] = [], commands: [Command],
        epilogue: String = ""
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.options = options
        self.commands = commands
        self.epilogue = epilogue
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit code,
    /// having printed any failure.
    public func main(_ arguments: [String]) async -> Int32 {
        do {
            try await run(arguments)
            return 0
        } catch {
            printError(error.message)
            if case .usage = error { printError("run `\(name) --help` for usage") }
            return error.exitCode
        }
    }

    /// Runs the command line `arguments` (without the program name); throws what failed.
    public func run(_ arguments: [String]) async throws(CLIError) {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("-") {
            rest = rest.dropFirst()
            if first == "--help" || first == "-h" {
                StandardStream.output.write(help)
                return
            }
            if first == "--version" {
                StandardStream.output.write(version + "\n")
                return
            }
            let (word, attached) = Self.split(first)
            guard let option = options.first(where: { $0.name == word }) else {
                throw .usage("unknown option \(first)")
            }
            guard let placeholder = option.value else {
                guard attached == nil else { throw .usage("\(option.name) takes no value") }
                flags.insert(option.name)
                continue
            }
            let value: String?
            if let attached {
                value = attached
            } else {
                value = rest.first
                rest = rest.dropFirst()
            }
            guard let value, !value.isEmpty else { throw .usage("\(option.name) needs a \(placeholder.lowercased())") }
            values[option.name] = value
        }
        guard let commandName = rest.first else { throw .usage("no command given") }
        guard let command = commands.first(where: { $0.name == commandName }) else {
            throw .usage("unknown command \(commandName)")
        }
        let commandArguments = Array(rest.dropFirst())
        if commandArguments.first == "--help" || commandArguments.first == "-h" {
            StandardStream.output.write(help(for: command))
            return
        }
        try await command.run(Invocation(tool: self, values: values, flags: flags), commandArguments)
    }

    /// Writes `TOOL: message` and a newline to standard error.
    public func printError(_ message: String) {
        StandardStream.error.write("\(name): \(message)\n")
    }

    /// `--name=value` as the name and the value; a word without `=` as itself and nil.
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
