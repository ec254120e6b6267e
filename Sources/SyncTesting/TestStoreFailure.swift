/// Why a test store's call could not go on (its failure is recorded with the test too).
public struct TestStoreFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let reason: String

    public var description: String { reason }
}
