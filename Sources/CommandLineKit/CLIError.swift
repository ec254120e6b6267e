/// A failure that ends a command: one line on standard error and an exit code.
///
/// The codes are the same for every tool built on `CommandLineTool`: 0 ok, 1 refused, 2 usage
/// (or an environment the command cannot run in), 3 the service unreachable.
public enum CLIError: Error, Sendable {
    /// The command line is wrong (exit 2). The text says what, and a hint to `--help` follows.
    case usage(String)
    /// The service refused the request (exit 1).
    case rejected(String)
    /// The service could not be reached or went away (exit 3).
    case unreachable(String)
    /// The command cannot run here, for example without a terminal (exit 2, no usage hint).
    case environment(String)

    /// The process exit code.
    public var exitCode: Int32 {
        switch self {
        case .rejected: return 1
        case .usage, .environment: return 2
        case .unreachable: return 3
        }
    }

    /// The line printed after `TOOL: `.
    public var message: String {
        switch self {
        case .usage(let text), .rejected(let text), .unreachable(let text), .environment(let text): return text
        }
    }
}
