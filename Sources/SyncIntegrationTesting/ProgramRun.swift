/// What a finished program left: its exit status and everything it wrote.
public struct ProgramRun: Sendable, Equatable {
    /// The exit status (128 + the signal's number for a program killed by one).
    public let status: Int32
    /// Its standard output.
    public let output: String
    /// Its standard error.
    public let errors: String

    /// A run with these results.
    public init(status: Int32, output: String, errors: String) {
        self.status = status
        self.output = output
        self.errors = errors
    }
}
