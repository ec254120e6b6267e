/// Why a `board` command failed: one line for standard error, and the exit status.
struct BoardCLIError: Error, CustomStringConvertible {
    /// The line printed.
    let description: String
    /// 2 for a usage error, 1 for anything else.
    let status: Int32

    /// A usage error (bad arguments): status 2.
    static func usage(_ message: String) -> BoardCLIError {
        BoardCLIError(description: message, status: 2)
    }

    /// A failure (refused, unreachable): status 1.
    static func failure(_ message: String) -> BoardCLIError {
        BoardCLIError(description: message, status: 1)
    }
}
