import CommandLineKit
import Testing

/// Parsing, help and exit codes of a tool built from a command table.
@Suite struct CommandLineToolTests {
    @Test func theHelpListsCommandsOptionsAndTheEpilogue() {
        #expect(
            SampleTool().tool.help == """
                usage: sample [--place WHERE] [--quiet] COMMAND [ARGUMENTS]

                Commands:
                  greet [--loud] NAME...     Greet NAME.
                  load FILE                  Load FILE.
                  fail                       Always refused.
                  completions bash|zsh|fish  Print a shell completion script, made from this command table.

                Options (before the command):
                  --place WHERE  the place to greet in
                                 (default: here)
                  --quiet        say less
                  --help         this help; `sample COMMAND --help` for one command
                  --version      the version

                Exit status: 0 ok, 2 usage error.

                """)
    }

    @Test func aCommandsHelpShowsItsUsageWithTheValuedOptions() throws {
        let tool = SampleTool().tool
        let greet = try #require(tool.commands.first { $0.name == "greet" })
        #expect(
            tool.help(for: greet)
                == "usage: sample [--place WHERE] greet [--loud] NAME...\n\nGreet NAME.\n\n--loud  in capitals\n")
        let load = try #require(tool.commands.first { $0.name == "load" })
        #expect(tool.help(for: load) == "usage: sample [--place WHERE] load FILE\n\nLoad FILE.\n")
    }

    @Test func optionsReachTheCommandInBothForms() async throws {
        let sample = SampleTool()
        try await sample.tool.run(["--place", "Rome", "--quiet", "greet", "Ann", "Bo"])
        try await sample.tool.run(["--place=Oslo", "greet", "Cy"])
        let runs = sample.runs.withLock { $0 }
        #expect(runs.map(\.place) == ["Rome", "Oslo"])
        #expect(runs.map(\.quiet) == [true, false])
        #expect(runs.map(\.arguments) == [["Ann", "Bo"], ["Cy"]])
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command frobnicate"),
        ([], "no command given"),
        (["--color", "greet", "Ann"], "unknown option --color"),
        (["--place"], "--place needs a where"),
        (["--place=", "greet", "Ann"], "--place needs a where"),
        (["--quiet=yes", "greet", "Ann"], "--quiet takes no value"),
        (["greet"], "greet needs a name"),
    ])
    func usageErrorsExitWithTwoAndRunNothing(arguments: [String], message: String) async {
        let sample = SampleTool()
        await #expect(throws: CLIError.self) { try await sample.tool.run(arguments) }
        do {
            try await sample.tool.run(arguments)
        } catch {
            guard case .usage(let text) = error else {
                Issue.record("not a usage error: \(error)")
                return
            }
            #expect(text == message)
            #expect(error.exitCode == 2)
        }
        #expect(sample.runs.withLock { $0.isEmpty }, "the command did not run")
    }

    @Test func eachFailureHasItsExitCode() async {
        #expect(CLIError.rejected("x").exitCode == 1)
        #expect(CLIError.usage("x").exitCode == 2)
        #expect(CLIError.environment("x").exitCode == 2)
        #expect(CLIError.unreachable("x").exitCode == 3)
        #expect(await SampleTool().tool.main(["fail"]) == 1)
    }

    @Test func argumentParsersSayWhatIsWrong() throws {
        #expect(try Arguments.positiveNumbers(["3", "14"], command: "pick", noun: "card number") == [3, 14])
        #expect(throws: CLIError.self) { try Arguments.positiveNumbers(["0"], command: "pick", noun: "card number") }
        #expect(try Arguments.text(["--", "-x", "y"], command: "say") == "-x y")
        #expect(throws: CLIError.self) { try Arguments.text(["-x"], command: "say") }
        #expect(try JSONOutput.line(["b": 1, "a": 2], what: "the counts") == "{\"a\":2,\"b\":1}\n")
    }
}
