import Glibc
import SyncLock

/// A plain POSIX thread running one closure, for the clients that must not depend on Swift
/// concurrency's scheduling: the pacing publisher and the Redis subscribers (which read on a
/// thread of their own, as SyncClient's reader thread does). Join it to wait for the end; one
/// that is not joined is detached when it goes.
final class BenchThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var thread = pthread_t()
    private var joined = false
    private let done = Locked(false)

    /// Starts a thread running `body`. A small stack: a figure may start a thousand of these.
    init(_ body: @escaping @Sendable () -> Void) throws(BenchError) {
        // Passed through pthread_create's context pointer, retained there, released by the thread.
        let done = done
        let context = Unmanaged.passRetained(
            Body {
                body()
                done.withLock { $0 = true }
            }
        ).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 256 * 1024)
        let created = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .process(name: "todo-bench", reason: "cannot start a thread: \(String(cString: strerror(created)))")
        }
    }

    /// Waits for the thread's closure to return.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }

    /// Waits for the thread's closure to return without blocking a thread of Swift's
    /// cooperative pool (a figure's subscriber tasks need every one of them meanwhile).
    func joinFromTask() async {
        while !done.withLock({ $0 }) { try? await Task.sleep(nanoseconds: 1_000_000) }
        join()
    }

    /// A thread nobody joined (a figure that failed half-way) is left to finish on its own:
    /// joining here could wait on a socket nobody will close.
    deinit {
        if !joined { pthread_detach(thread) }
    }
}
