import Foundation

/// What the suite runs on, as `scripts/test` tells it through the environment.
public enum TestEnvironment {
    /// The sanitizer the binaries were built with (`TODO_TEST_SANITIZER`: `address`, `thread`),
    /// `nil` in the plain build.
    public static var sanitizer: String? { ProcessInfo.processInfo.environment["TODO_TEST_SANITIZER"] }

    /// Whether tests that bound how long a fault may hold a daemon back (an answer within 1 s)
    /// run: in the plain build only, since a sanitizer makes every call several times slower.
    public static var assertsTimeBounds: Bool { sanitizer == nil }

    /// Why such a test is skipped here.
    public static let timeBoundsSkipReason =
        "time bounds are asserted in the plain build only (TODO_TEST_SANITIZER is set)"
}
