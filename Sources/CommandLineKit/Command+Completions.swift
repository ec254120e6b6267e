extension Command {
    /// `TOOL completions bash|zsh|fish`: prints the completion script of the tool that runs
    /// it, made from its command table. Any tool can put it in its table.
    public static let completions = Command(
        name: "completions", arguments: CompletionScripts.shells.joined(separator: "|"),
        summary: "Print a shell completion script, made from this command table.",
        details: "The install script puts them where bash-completion, zsh and fish look.",
        run: { invocation, arguments throws(CLIError) in
            guard arguments.count == 1, let shell = arguments.first else {
                throw .usage("completions needs one of bash, zsh, fish")
            }
            guard let script = CompletionScripts.script(for: shell, of: invocation.tool) else {
                throw .usage("completions supports bash, zsh and fish, not \(shell)")
            }
            StandardStream.output.write(script)
        })
}
