import CommandLineKit
import Synchronization

/// A small tool of two options and three commands, standing for any app's CLI.
final class SampleTool: Sendable {
    /// One run of `greet`: the options and arguments it was given.
    struct Run: Sendable {
        let place: String?
        let quiet: Bool
        let arguments: [String]
    }

    /// Every run of `greet`, for the tests to read.
    let runs = Mutex<[Run]>([])

    var tool: CommandLineTool {
        CommandLineTool(
            name: "sample", version: "sample 1.2",
            options: [
                GlobalOption(
                    "--place", value: "WHERE", summary: "where to greet", help: "the place to greet in\n(default: here)"
                ),
                GlobalOption("--quiet", summary: "say less", help: "say less"),
            ],
            commands: [
                greet, Command(name: "load", arguments: "FILE", summary: "Load FILE.", details: "", run: { _, _ in }),
                Command(
                    name: "fail", arguments: "", summary: "Always refused.", details: "",
                    run: { _, _ throws(CLIError) in throw .rejected("no") }),
                .completions,
            ],
            epilogue: "Exit status: 0 ok, 2 usage error.")
    }

    private var greet: Command {
        Command(
            name: "greet", arguments: "[--loud] NAME...", summary: "Greet NAME.", details: "--loud  in capitals",
            run: { [self] invocation, arguments throws(CLIError) in
                guard !arguments.isEmpty else { throw .usage("greet needs a name") }
                runs.withLock {
                    $0.append(
                        Run(
                            place: invocation.value(of: "--place"), quiet: invocation.isSet("--quiet"),
                            arguments: arguments))
                }
            })
    }
}
