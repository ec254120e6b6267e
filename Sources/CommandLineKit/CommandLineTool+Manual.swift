import ManualPage

extension CommandLineTool {
    /// The tool's manual page (section 1), from the same table as `--help` and the completions:
    /// the commands with their details, the options, and the epilogue's paragraphs.
    public var manualPage: ManualPage {
        let commandEntries = commands.map { command in
            ManualPage.Entry(
                command.name + (command.arguments.isEmpty ? "" : " \(command.arguments)"),
                [command.summary] + command.details.split(separator: "\n").map(String.init))
        }
        let optionEntries = (options + standardOptions).map { option in
            ManualPage.Entry(option.synopsis, option.help.split(separator: "\n").map(String.init))
        }
        let paragraphs = epilogue.split(separator: "\n\n").map { $0.split(separator: "\n").joined(separator: " ") }
        return ManualPage(
            name: name, section: 1, summary: summary.isEmpty ? "the \(name) command line" : summary,
            synopsis: ["\(name) [OPTION]... COMMAND [ARGUMENT]...", "\(name) COMMAND --help"],
            sections: [
                ManualPage.Section("DESCRIPTION", paragraphs: paragraphs),
                ManualPage.Section("COMMANDS", entries: commandEntries),
                ManualPage.Section("OPTIONS", paragraphs: ["Given before the command."], entries: optionEntries),
            ],
            source: version)
    }
}
