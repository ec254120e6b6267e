extension Command {
    /// `TOOL manual`: prints the manual page (roff) of the tool that runs it, made from its
    /// command table; `TOOL manual | man -l -` reads it. Any tool can put it in its table.
    public static let manual = Command(
        name: "manual", arguments: "", summary: "Print this tool's manual page (roff), made from this command table.",
        details: "The install script puts it where man looks (man 1 TOOL).",
        run: { invocation, arguments throws(CLIError) in
            guard arguments.isEmpty else { throw .usage("manual takes no arguments") }
            StandardStream.output.write(invocation.tool.manualPage.roff)
        })
}
