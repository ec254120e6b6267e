import Dispatch
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
    private static let sources = Locked([any DispatchSourceSignal]())

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
    static func install() {
        let made = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let actions = registered.withLock { state in
                    defer { state.actions.removeAll() }
                    state.interrupted = true
                    state.cleaner = pthread_self()
                    return state.actions.sorted { $0.key > $1.key }.map(\.value)
                }
                for action in actions { action() }
                Glibc.exit(128 + number)
            }
            source.resume()
            return source
        }
        sources.withLock { $0 = made }
    }
}
