import Glibc
import SyncLock

/// What must not outlive the bench even when it is interrupted (SIGINT, SIGTERM, SIGHUP): the
/// children it started, and what the shared-log figures made in the kernel (network
/// namespaces, veth pairs) or left running under another user (the PostgreSQL server).
///
/// A figure that fails cleans up through `deinit`s and `BenchContext.cleanUp()`; a signal
/// skips those, so every such thing is registered here as it is made and unregistered when it
/// is gone, and `install()` makes the signals run what is registered, then exit. The main
/// thread goes on meanwhile: what it registers after the signal is cleaned up at once, and it
/// ends through `exit(_:)`, which leaves the exit to the signal's cleanup.
enum InterruptCleanup {
    /// A registered cleanup, to unregister it with.
    struct Token: Hashable, Sendable {
        fileprivate let number: Int
    }

    private static let registered = Locked(
        (next: 0, interrupted: false, cleaner: pthread_t(), actions: [Int: @Sendable () -> Void]()))

    /// Registers `action`, run if a signal ends the bench before `unregister` (at once when
    /// one already did, unless the cleanup itself registers it: its own `ip` and `pg_ctl`).
    static func register(_ action: @escaping @Sendable () -> Void) -> Token {
        let (token, runNow) = registered.withLock { state in
            state.next += 1
            if !state.interrupted { state.actions[state.next] = action }
            return (Token(number: state.next), state.interrupted && pthread_equal(state.cleaner, pthread_self()) == 0)
        }
        if runNow { action() }
        return token
    }

    /// Exits with `code`, unless a signal's cleanup is running: then waits for it to exit.
    static func exit(_ code: Int32) -> Never {
        if registered.withLock({ $0.interrupted }) {
            while true { pause() }
        }
        Glibc.exit(code)
    }

    /// Whether a signal's cleanup has started.
    static var isInterrupted: Bool { registered.withLock { $0.interrupted } }

    /// Forgets a cleanup that is no longer needed.
    static func unregister(_ token: Token) {
        _ = registered.withLock { $0.actions.removeValue(forKey: token.number) }
    }

    /// Makes SIGINT, SIGTERM and SIGHUP run every registered cleanup (newest first), then
    /// exit with 128 + the signal's number.
    ///
    /// The handler only writes the signal's number into a pipe (whichever thread the kernel
    /// interrupts); a thread of its own reads it and cleans up. Not a `DispatchSource` on a
    /// global queue: with the signals ignored, as such a source needs, a signal the kernel
    /// hands to a thread that does not block it is dropped, and the handler then needs a free
    /// thread of libdispatch's pool (on Linux the one Swift concurrency runs the figures on):
    /// on a loaded machine the bench went on running after SIGTERM past the suite's 60 s
    /// (`BenchSmokeTests.anInterruptedRunLeavesNothingBehind`).
    static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipe = (ends[0], ends[1])
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { _ in
                var number: UInt8 = 0
                while true {
                    let count = read(InterruptCleanup.signalPipe.read, &number, 1)
                    if count == 1 { break }
                    if count < 0 && errno == EINTR { continue }
                    return nil
                }
                InterruptCleanup.cleanUp(after: Int32(number))
            }, nil)
        guard created == 0 else { return }
        pthread_detach(thread)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(InterruptCleanup.signalPipe.write, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// The pipe from the signal handler to the cleanup thread; set once, before the handler.
    nonisolated(unsafe) private static var signalPipe: (read: Int32, write: Int32) = (-1, -1)

    /// Runs every registered cleanup (newest first), then exits with 128 + `number`.
    private static func cleanUp(after number: Int32) -> Never {
        let actions = registered.withLock { state in
            defer { state.actions.removeAll() }
            state.interrupted = true
            state.cleaner = pthread_self()
            return state.actions.sorted { $0.key > $1.key }.map(\.value)
        }
        for action in actions { action() }
        Glibc.exit(128 + number)
    }
}
