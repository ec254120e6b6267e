import Glibc

/// A thread of its own for blocking work the loop must not wait for (a database connection):
/// it runs `body` once; `join()` waits for its end.
final class BackgroundThread {
    private var thread = pthread_t()
    private var isJoined = false

    /// Starts a thread running `body`; `subject` names it in an error.
    init(_ subject: String, body: @escaping @Sendable () -> Void) throws(DaemonError) {
        let started = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(ThreadBody(body)).toOpaque())
        guard started == 0 else { throw .system(operation: "starting", subject: subject, errno: started) }
    }

    /// Waits until `body` returned. Safe to call more than once.
    func join() {
        guard !isJoined else { return }
        isJoined = true
        pthread_join(thread, nil)
    }
}

/// The body of a `BackgroundThread`, carried through `pthread_create`'s argument.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
