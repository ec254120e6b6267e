/// What can stop a benchmark run. Every case names the thing that failed and how.
enum BenchError: Error, CustomStringConvertible {
    /// The command line is wrong; the message says which option and why.
    case usage(String)
    /// A program the run needs is missing (a binary beside this one, or redis on `PATH`).
    case missingProgram(name: String, looked: String)
    /// A child process could not be started, or exited when it should not have.
    case process(name: String, reason: String)
    /// A socket operation on `path` failed.
    case socket(path: String, operation: String, reason: String)
    /// A server answered something the run did not expect.
    case unexpectedReply(from: String, reply: String)
    /// Something did not happen within its deadline (a deadline only stops a broken run).
    case timedOut(String)
    /// A file could not be read or written.
    case file(path: String, reason: String)

    var description: String {
        switch self {
        case .usage(let message): return message
        case .missingProgram(let name, let looked): return "cannot find \(name) (looked in \(looked))"
        case .process(let name, let reason): return "\(name): \(reason)"
        case .socket(let path, let operation, let reason): return "\(operation) on \(path) failed: \(reason)"
        case .unexpectedReply(let source, let reply): return "unexpected reply from \(source): \(reply)"
        case .timedOut(let what): return "timed out: \(what)"
        case .file(let path, let reason): return "\(path): \(reason)"
        }
    }
}
