/// A value guarded by a `PthreadMutex`, for the few places where threads share state (the
/// client's reader thread, the daemon's cross-thread inbox).
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `mutex` is held, which also makes each access
    // exclusive, so the runtime's exclusivity check of it is left out (one per dispatch, in the
    // daemon's ids).
    private let mutex = PthreadMutex()
    @exclusivity(unchecked) private var value: Value

    /// A lock guarding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Do no I/O and call no user code inside.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try mutex.run { () throws(Failure) in try body(&value) }
    }
}
