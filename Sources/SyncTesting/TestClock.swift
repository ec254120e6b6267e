import SyncLock
import SyncStore
import Testing

/// A clock that moves only when the test says: `advance(by:)` moves it and wakes every sleeper
/// whose time has come. `waitForSleepers` lets a test wait until a side effect went back to
/// sleep, so it knows the side effect did what it does at one time before moving on.
public final class TestClock: WallClock {
    private struct Sleeper {
        let id: Int
        let wakeAt: Int64
        /// The `TestStore.run` whose side effect (or a task it started) sleeps, if any.
        let run: Int?
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Set by `TestStore.run` around its side effect's task, and inherited by the tasks that
    /// one starts: which run a sleeper belongs to.
    @TaskLocal static var run: Int?

    private static let runs = Locked(0)

    /// A number for a new `TestStore.run`, unique in the process.
    static func newRun() -> Int {
        runs.withLock { count in
            count += 1
            return count
        }
    }

    private struct Clock {
        var now: Int64
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let clock: Locked<Clock>

    /// A clock reading `now` milliseconds since the Unix epoch.
    public init(now: Int64 = 0) {
        clock = Locked(Clock(now: now))
    }

    public func now() -> Int64 {
        clock.withLock { $0.now }
    }

    /// Returns once the clock was advanced `milliseconds` past now (at once for 0 or less).
    public func sleep(milliseconds: Int64) async throws {
        let id = clock.withLock { clock in
            clock.nextID += 1
            return clock.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = clock.withLock { clock -> Bool in
                    guard milliseconds > 0, !Task.isCancelled else { return true }
                    clock.sleepers.append(
                        Sleeper(id: id, wakeAt: clock.now + milliseconds, run: Self.run, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = clock.withLock { clock -> Sleeper? in
                guard let index = clock.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return clock.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the clock `milliseconds` forward and wakes the sleepers due by then.
    public func advance(by milliseconds: Int64) {
        let due = clock.withLock { clock -> [Sleeper] in
            clock.now += milliseconds
            let now = clock.now
            let due = clock.sleepers.filter { $0.wakeAt <= now }
            clock.sleepers.removeAll { $0.wakeAt <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many tasks sleep on this clock now.
    public var sleeperCount: Int {
        clock.withLock { $0.sleepers.count }
    }

    /// Whether a task of `TestStore.run` number `run` sleeps on this clock now.
    func hasSleeper(of run: Int) -> Bool {
        clock.withLock { $0.sleepers.contains { $0.run == run } }
    }

    /// Waits until at least `count` tasks sleep on this clock; records an issue if that has not
    /// happened within `deadlineSeconds` of real time (a guard against hanging, not a timing).
    public func waitForSleepers(
        _ count: Int = 1, deadlineSeconds: Int = 30, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let ok = await Polling.until(deadlineSeconds: deadlineSeconds) { sleeperCount >= count }
        if !ok {
            Issue.record(
                "\(sleeperCount) tasks sleep on the test clock after \(deadlineSeconds) s; expected \(count)",
                sourceLocation: sourceLocation)
        }
    }
}
