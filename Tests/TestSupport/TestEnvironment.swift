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

    /// How much longer work takes here than on an idle machine, as the run queue tells: the
    /// one-minute load average over the cores, at least 1. A test holding a fault's effect to a
    /// documented bound (an answer within 1 s: on an idle machine) holds it to this many times
    /// the bound, so that the bound still catches a stall (a wait on a timeout, a lost wake-up
    /// lasts as long on any machine) without measuring how busy the machine is: in a CI run at
    /// a load of 10 on 2 cores, a host resumed from SIGSTOP catching up 10 s of four writers'
    /// dispatches (each pausing 10 ms) answered after 5.8 s, 0.4–0.6 s when idle.
    public static var loadFactor: Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first, let load = Double(first)
        else { return 1 }
        return max(1, load / Double(ProcessInfo.processInfo.activeProcessorCount))
    }
}
