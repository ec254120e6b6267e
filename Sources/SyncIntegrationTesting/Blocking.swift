import Foundation
import Testing

/// For tests that block their thread while they wait: for child processes (`waitForExit`,
/// `eventually`), for sockets, for other threads. Each test case runs on threads of its own
/// instead of Swift's cooperative pool, which has as many threads as cores (2 on this project's
/// machines): synchronous tests that wait there hold a pool thread each, and two of them stop
/// every other test of the process, the testing library's own bookkeeping included, for as long
/// as they wait (before this trait, nearly every test of `swift test` ended at the same moment,
/// when the longest waits did).
///
/// At most `Blocking.width` such test cases run at a time; the others wait for a slot
/// (suspended, without a thread), so that their daemons, servers and terminals do not all start
/// at once. A waiting test marked `.blocking(.long)` gets the next free slot before the others:
/// started late, a test of half a minute would end the run late.
///
/// Only for tests whose waits are their own: a test about where tasks run (`StoppedDaemonTests`,
/// which needs the real pool), or an async test of a client library whose tasks should run where
/// an app's run, does not take it.
public struct Blocking: TestTrait, SuiteTrait, TestScoping {
    /// Whether a test waits for its slot like the others or before them.
    public enum Length: Sendable {
        /// A test of a few seconds.
        case short
        /// A test that takes several times longer than most, or a serialized suite (whose tests
        /// come one after another): given a slot before the short ones waiting.
        case long
    }

    /// How many blocking test cases run at once: they mostly wait, so more than the cores.
    /// Under a sanitizer (`TODO_TEST_SANITIZER` set, as `scripts/test` does), every process is
    /// several times slower: under AddressSanitizer as many as the cores run at once (its pass
    /// keeps them busy), so that the tests' own deadlines still hold; under ThreadSanitizer
    /// twice as many, since its tests mostly wait (with as many as the cores, its pass took
    /// 108 s on 2 cores with 52 s of CPU; with twice as many, 64 s with 57 s).
    public static let width: Int = {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        switch ProcessInfo.processInfo.environment["TODO_TEST_SANITIZER"] {
        case nil: return max(4, 3 * cores)
        case "thread": return 2 * cores
        default: return cores
        }
    }()

    private static let slots = Slots(width)

    /// Set in a test's scope, so that a second `Blocking` on the same test (one on the suite,
    /// one on the function) takes no second slot.
    @TaskLocal private static var isInScope = false

    let length: Length

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Blocking? {
        // One scope per test case (a suite's own scope would put the whole suite in one slot).
        guard testCase != nil else { return nil }
        // A short one on the suite leaves a long test to the long one on its function.
        if length == .short && test.traits.contains(where: { ($0 as? Blocking)?.length == .long }) { return nil }
        return self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isInScope { return try await function() }
        // The slot is taken and given back on the test's own threads: given back after a hop to
        // the cooperative pool, it waited there behind every unit test queued (the first
        // blocking tests of a run held their slots 7 s after they ended, 26 s under
        // AddressSanitizer, and no other blocking test started meanwhile).
        try await Self.$isInScope.withValue(true) {
            try await withTaskExecutorPreference(ThreadPerJobExecutor()) {
                let queued = ContinuousClock.now
                await Self.slots.acquire(first: length == .long)
                defer { Self.slots.release() }
                let started = ContinuousClock.now
                defer { Self.recordTimeline(test, queued: queued, started: started) }
                try await function()
            }
        }
    }

    /// With `TIMELINE` naming a file, appends when `test` was queued, started and ended (to see
    /// what a run waits for).
    private static func recordTimeline(_ test: Test, queued: ContinuousClock.Instant, started: ContinuousClock.Instant)
    {
        guard let path = ProcessInfo.processInfo.environment["TIMELINE"] else { return }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // One write of the whole line to a file opened for appending: lines of tests ending
        // at once do not overwrite each other.
        let line = Array("\(queued) \(started) \(ContinuousClock.now) \(test.id) \n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

extension Trait where Self == Blocking {
    /// The tests block their thread while they wait; see `Blocking`.
    public static var blocking: Blocking { Blocking(length: .short) }

    /// The tests block their thread while they wait, and are `.long` ones; see `Blocking`.
    public static func blocking(_ length: Blocking.Length) -> Blocking { Blocking(length: length) }
}

/// Runs each job on a new thread: what a synchronous test then blocks is its own thread. The
/// test's task keeps its task-local values (the test, its configuration), so issues are recorded
/// against it as on the pool.
private final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread { job.runSynchronously(on: executor) }
    }
}

/// A counting semaphore for tasks: `acquire(first:)` suspends the task (never blocking a
/// thread) until one of `width` slots is free; those waiting `first` get one before the others.
/// Guarded by an `NSLock` (a pthread mutex, which ThreadSanitizer understands; it does not see
/// the futex under `Synchronization.Mutex` and reports races).
private final class Slots: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int
    private var waitingFirst: [CheckedContinuation<Void, Never>] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ width: Int) {
        free = width
    }

    func acquire(first: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = lock.withLock {
                guard free > 0 else {
                    if first { waitingFirst.append(continuation) } else { waiting.append(continuation) }
                    return false
                }
                free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if !waitingFirst.isEmpty { return waitingFirst.removeFirst() }
            if !waiting.isEmpty { return waiting.removeFirst() }
            free += 1
            return nil
        }
        next?.resume()
    }
}
