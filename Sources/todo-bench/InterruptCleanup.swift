import Dispatch
import Glibc
import SyncLock

/// What must not outlive the bench even when it is interrupted (SIGINT, SIGTERM, SIGHUP): the
/// children it started, and what the shared-log figures made in the kernel (network
/// namespaces, veth pairs) or left running under another user (the PostgreSQL server).
///
/// A figure that fails cleans up through `deinit`s and `BenchContext.cleanUp()`; a signal
/// skips those, so every such thing is registered here as it is made and unregistered when it
/// is gone, and `install()` makes the signals run what is registered, then exit.
enum InterruptCleanup {
    /// A registered cleanup, to unregister it with.
    struct Token: Hashable, Sendable {
        fileprivate let number: Int
    }

    private static let registered = Locked((next: 0, actions: [Int: @Sendable () -> Void]()))
    private static let sources = Locked([any DispatchSourceSignal]())

    /// Registers `action`, run if a signal ends the bench before `unregister`.
    static func register(_ action: @escaping @Sendable () -> Void) -> Token {
        registered.withLock { state in
            state.next += 1
            state.actions[state.next] = action
            return Token(number: state.next)
        }
    }

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
                    return state.actions.sorted { $0.key > $1.key }.map(\.value)
                }
                for action in actions { action() }
                exit(128 + number)
            }
            source.resume()
            return source
        }
        sources.withLock { $0 = made }
    }
}
