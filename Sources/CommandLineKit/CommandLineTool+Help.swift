extension CommandLineTool {
    /// What `TOOL --help` prints: the synopsis, the command table, the options, the epilogue.
    public var help: String {
        let width = commands.map { $0.name.count + 1 + $0.arguments.count }.max() ?? 0
        let table = commands.map { command in
            let left = command.name + (command.arguments.isEmpty ? "" : " \(command.arguments)")
            return "  " + left + String(repeating: " ", count: width - left.count + 2) + command.summary
        }
        let flags = options.map { "[\($0.synopsis)] " }.joined()
        return """
            usage: \(name) \(flags)COMMAND [ARGUMENTS]

            Commands:
            \(table.joined(separator: "\n"))

            Options (before the command):
            \(optionLines.joined(separator: "\n"))

            """ + (epilogue.isEmpty ? "" : "\n\(epilogue)\n")
    }

    /// `TOOL [--socket PATH] NAME ARGUMENTS`: options with a value appear in every usage line.
    public func usage(of command: Command) -> String {
        let valued = options.filter { $0.value != nil }.map { "[\($0.synopsis)] " }.joined()
        return "\(name) \(valued)\(command.name)" + (command.arguments.isEmpty ? "" : " \(command.arguments)")
    }

    /// What `TOOL NAME --help` prints.
    public func help(for command: Command) -> String {
        "usage: \(usage(of: command))\n\n\(command.summary)\n"
            + (command.details.isEmpty ? "" : "\n\(command.details)\n")
    }

    /// `--help` and `--version`, which every tool takes.
    var standardOptions: [GlobalOption] {
        [
            GlobalOption("--help", summary: "this help", help: "this help; `\(name) COMMAND --help` for one command"),
            GlobalOption("--version", summary: "the version", help: "the version"),
        ]
    }

    /// Every option with its help, the text of each aligned two spaces after the longest
    /// synopsis (as the command table is).
    private var optionLines: [String] {
        let all = options + standardOptions
        let width = (all.map(\.synopsis.count).max() ?? 0) + 2
        return all.flatMap { option in
            option.help.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                let left = index == 0 ? option.synopsis : ""
                return "  " + left + String(repeating: " ", count: width - left.count) + line
            }
        }
    }
}
