/// Why a test could not get its programs going: a program that would not start, a daemon that
/// never answered, a temporary directory that could not be made. The description says which.
public struct IntegrationFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the test's report.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
