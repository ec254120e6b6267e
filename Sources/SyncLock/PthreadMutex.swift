import Glibc

/// A pthread mutex that serialises a piece of work rather than guarding a value (concurrent
/// writers of one socket). `Locked` is built on it.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with raw futex calls that
/// ThreadSanitizer cannot see, so every access through it is reported as a race and real
/// races drown. A pthread mutex is intercepted by ThreadSanitizer and costs the same here.
/// (Nor `Locked<Void>`: ThreadSanitizer misreads accesses to a zero-sized stored value.)
public final class PthreadMutex: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked mutex.
    public init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` while holding the mutex.
    public func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
