import Glibc
import SyncLock

/// The gateway's thread and a way to await its end without blocking a task: the thread
/// resumes whoever waits when its body returns.
final class ThreadExit: Sendable {
    private struct State {
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Runs `body(subject)` on a new thread. `subject` is handed over: the caller must not use
    /// it again (it is not `Sendable`; from now on only that thread touches it).
    static func run<Subject: AnyObject>(handingOver subject: Subject, _ body: @escaping (Subject) -> Void)
        throws(WebGatewayError) -> ThreadExit
    {
        let exit = ThreadExit()
        let start = ThreadStart {
            body(subject)
            exit.finish()
        }
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, Unmanaged.passRetained(start).toOpaque())
        guard created == 0 else { throw .cannotStartThread(created) }
        pthread_detach(thread)
        return exit
    }

    /// Returns once the thread's body returned.
    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.finished { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func finish() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A thread's body, carried through `pthread_create`'s argument. `@unchecked Sendable`: it is
/// made on the starting thread and only ever run on the new one.
private final class ThreadStart: @unchecked Sendable {
    let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
    }
}
