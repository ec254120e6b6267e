import Glibc

/// A value guarded by a pthread mutex, for the few places where threads share state (the
/// client's reader thread, the daemon's cross-thread inbox).
///
/// Why not `Synchronization.Mutex`: on Linux it locks with raw futex calls that
/// ThreadSanitizer cannot see, so every access through it is reported as a race and real
/// races drown. A pthread mutex is intercepted by ThreadSanitizer and costs the same here.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched between lock and unlock of `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock guarding `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Do no I/O and call no user code inside.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
