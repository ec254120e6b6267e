import CUV

/// Owns one libuv handle that only calls back (a signal, a prepare, an async, a timer) and the
/// closure it runs when it fires.
///
/// Lifetime: `data` points at this owner, which retains itself from `uv_*_init` until the close
/// callback, where the handle's memory is freed. Loop-confined: not `Sendable`.
final class LoopHandle<Handle> {
    /// The libuv handle, valid until the close callback.
    let handle: UnsafeMutablePointer<Handle>
    /// Runs on the loop thread each time the handle fires.
    var onFire: () -> Void

    private let asHandle: (UnsafeMutablePointer<Handle>?) -> UnsafeMutablePointer<uv_handle_t>?
    private(set) var isClosed = false

    /// Allocates the handle and runs `initialise` on it (a `uv_*_init` call).
    init(
        _ what: String,
        asHandle: @escaping (UnsafeMutablePointer<Handle>?) -> UnsafeMutablePointer<uv_handle_t>?,
        initialise: (UnsafeMutablePointer<Handle>) -> Int32,
        onFire: @escaping () -> Void
    ) throws(DaemonError) {
        handle = .allocate(capacity: 1)
        self.asHandle = asHandle
        self.onFire = onFire
        let result = initialise(handle)
        guard result == 0 else {
            handle.deallocate()
            throw .libuv(operation: "initialising", subject: what, code: result)
        }
        asHandle(handle)!.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Closes the handle; its memory is freed in the close callback.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        uv_close(asHandle(handle), onHandleClosed)
    }

    /// Runs the owner's closure for the handle whose `data` is `data`.
    static func fire(_ data: UnsafeMutableRawPointer?) {
        Unmanaged<LoopHandle>.fromOpaque(data!).takeUnretainedValue().onFire()
    }

    fileprivate func freeHandle() {
        handle.deallocate()
    }
}

private let onHandleClosed: uv_close_cb = { handle in
    // The owner's concrete type is erased here; freeing only needs the memory, so each owner
    // is recovered through the protocol below.
    let owner = Unmanaged<AnyObject>.fromOpaque(handle!.pointee.data!)
    (owner.takeUnretainedValue() as! any ClosableHandleOwner).didClose()
    owner.release()
}

/// The part of `LoopHandle` the shared close callback needs, without its generic parameter.
private protocol ClosableHandleOwner: AnyObject {
    func didClose()
}

extension LoopHandle: ClosableHandleOwner {
    fileprivate func didClose() {
        freeHandle()
        // The closure may capture owners of this handle; dropping it breaks such cycles.
        onFire = {}
    }
}

/// Factories for the handle kinds the daemon uses.
extension LoopHandle where Handle == uv_signal_t {
    /// Watches `signal`; `onFire` runs on the loop thread each time it arrives.
    static func signal(_ signal: Int32, loop: UnsafeMutablePointer<uv_loop_t>, onFire: @escaping () -> Void)
        throws(DaemonError) -> LoopHandle
    {
        let owner = try LoopHandle(
            "signal watcher", asHandle: cuv_signal_as_handle, initialise: { uv_signal_init(loop, $0) }, onFire: onFire)
        do {
            try DaemonError.check(
                uv_signal_start(
                    owner.handle, { handle, _ in LoopHandle<uv_signal_t>.fire(handle!.pointee.data) }, signal),
                "watching", "signal \(signal)")
        } catch {
            owner.close()
            throw error
        }
        return owner
    }
}

extension LoopHandle where Handle == uv_prepare_t {
    /// A hook that runs once per loop pass, just before the loop waits for I/O, while started.
    static func passEnd(loop: UnsafeMutablePointer<uv_loop_t>, onFire: @escaping () -> Void) throws(DaemonError)
        -> LoopHandle
    {
        try LoopHandle(
            "pass-end hook", asHandle: cuv_prepare_as_handle, initialise: { uv_prepare_init(loop, $0) }, onFire: onFire)
    }

    /// Runs the hook at the end of every pass until `stop()`.
    func start() {
        guard !isClosed else { return }
        uv_prepare_start(handle) { handle in LoopHandle<uv_prepare_t>.fire(handle!.pointee.data) }
    }

    /// Stops running the hook.
    func stop() {
        uv_prepare_stop(handle)
    }
}

extension LoopHandle where Handle == uv_async_t {
    /// A wake-up other threads can trigger with `uv_async_send`; `onFire` runs on the loop thread.
    static func wakeUp(loop: UnsafeMutablePointer<uv_loop_t>, onFire: @escaping () -> Void) throws(DaemonError)
        -> LoopHandle
    {
        try LoopHandle(
            "cross-thread wake-up", asHandle: cuv_async_as_handle,
            initialise: {
                uv_async_init(loop, $0) { handle in LoopHandle<uv_async_t>.fire(handle!.pointee.data) }
            }, onFire: onFire)
    }
}

extension LoopHandle where Handle == uv_timer_t {
    /// A timer that fires after `milliseconds`, and then every `repeat` milliseconds if that is
    /// not 0. `onFire` runs on the loop thread.
    static func timer(
        loop: UnsafeMutablePointer<uv_loop_t>, after milliseconds: UInt64, repeat: UInt64 = 0,
        onFire: @escaping () -> Void
    ) throws(DaemonError) -> LoopHandle {
        let owner = try LoopHandle(
            "timer", asHandle: cuv_timer_as_handle, initialise: { uv_timer_init(loop, $0) }, onFire: onFire)
        do {
            try DaemonError.check(
                uv_timer_start(
                    owner.handle, { handle in LoopHandle<uv_timer_t>.fire(handle!.pointee.data) }, milliseconds,
                    `repeat`), "starting", "a timer")
        } catch {
            owner.close()
            throw error
        }
        return owner
    }
}
