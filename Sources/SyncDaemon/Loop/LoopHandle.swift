import CUV

/// Owns one libuv handle, whatever its type: every handle of the daemon (signals, the pass-end
/// prepare, asyncs, timers, the listening pipe and each client's pipe) goes through it.
///
/// ```
///  init: allocate ──uv_*_init──▶ data = this owner, retained ──▶ callbacks find it through data
///  close() ──uv_close──▶ close callback: drops onFire and target, frees the handle, releases the owner
/// ```
///
/// A handle that only calls back (a signal, a prepare, an async, a timer) runs `onFire`; a pipe's
/// callbacks reach its `target` (a `Connection`, the `UnixListener`) through `target(of:as:)`.
/// Both are kept until the close callback, so no callback can name a freed object, and dropped
/// there, which breaks the cycle of a target that owns its handle. Loop-confined: not `Sendable`.
final class LoopHandle<Handle> {
    /// The libuv handle, valid until the close callback.
    let handle: UnsafeMutablePointer<Handle>
    /// Runs on the loop thread each time the handle fires (handles that only call back).
    var onFire: () -> Void
    /// What the handle's callbacks act on, if they act on an object; see `attach(_:)`.
    private(set) var target: AnyObject?
    /// Whether `close()` was called; the memory lives until the close callback all the same.
    private(set) var isClosed = false

    private let asHandle: (UnsafeMutablePointer<Handle>?) -> UnsafeMutablePointer<uv_handle_t>?

    /// Allocates the handle and runs `initialise` on it (a `uv_*_init` call); `what` names it in
    /// the error if that fails, and the memory is freed at once.
    init(
        _ what: String,
        asHandle: @escaping (UnsafeMutablePointer<Handle>?) -> UnsafeMutablePointer<uv_handle_t>?,
        initialise: (UnsafeMutablePointer<Handle>) -> Int32,
        onFire: @escaping () -> Void = {}
    ) throws(DaemonError) {
        handle = .allocate(capacity: 1)
        self.asHandle = asHandle
        self.onFire = onFire
        let result = initialise(handle)
        guard result == 0 else {
            handle.deallocate()
            throw .libuv(operation: "initialising", subject: what, code: result)
        }
        // From here on the handle exists and must go through uv_close; the retained reference
        // is released in the close callback.
        asHandle(handle)!.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Makes `target` what the handle's callbacks reach, kept alive until the close callback.
    /// Called once, before any callback can fire.
    func attach(_ target: AnyObject) {
        self.target = target
    }

    /// The handle as libuv's base type, for `uv_*` calls on any handle.
    var baseHandle: UnsafeMutablePointer<uv_handle_t> { asHandle(handle)! }

    /// Closes the handle; its memory is freed in the close callback.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        uv_close(baseHandle, onHandleClosed)
    }

    /// Runs the owner's closure for the handle whose `data` is `data`.
    static func fire(_ data: UnsafeMutableRawPointer?) {
        Unmanaged<LoopHandle>.fromOpaque(data!).takeUnretainedValue().onFire()
    }

    /// The target of the handle whose `data` is `data`, which was attached as a `Target`. Only
    /// for callbacks of a handle with a target, which run before its close callback.
    static func target<Target: AnyObject>(of data: UnsafeMutableRawPointer?, as _: Target.Type) -> Target {
        unsafeDowncast(Unmanaged<LoopHandle>.fromOpaque(data!).takeUnretainedValue().target!, to: Target.self)
    }
}

/// What the shared close callback and the end of the loop need of the owner a handle's `data`
/// points at, without its generic parameter.
protocol AnyLoopHandle: AnyObject {
    /// Closes a handle still open when the loop ends: the way its target closes it if it has one
    /// (a connection tells its server), else plainly. A no-op if already closed.
    func closeLeftover()
    /// The close callback's part: lets go of `onFire` and the target and frees the handle.
    /// Called by the close callback only.
    func didClose()
}

/// A handle's target with its own way of closing its handle (see `AnyLoopHandle.closeLeftover()`).
protocol LoopHandleTarget: AnyObject {
    /// Closes the target's handle because the loop ended with it open.
    func closeLeftoverHandle()
}

extension LoopHandle: AnyLoopHandle {
    func closeLeftover() {
        if let target = target as? any LoopHandleTarget {
            target.closeLeftoverHandle()
        } else {
            close()
        }
    }

    func didClose() {
        handle.deallocate()
        // The closure and the target may hold this owner; dropping them breaks such cycles.
        onFire = {}
        target = nil
    }
}

private let onHandleClosed: uv_close_cb = { handle in
    let owner = Unmanaged<AnyObject>.fromOpaque(handle!.pointee.data!)
    (owner.takeUnretainedValue() as! any AnyLoopHandle).didClose()
    owner.release()
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
        guard !isClosed else { return }
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

extension LoopHandle where Handle == uv_pipe_t {
    /// An unconnected pipe (a Unix socket) on `loop`, named `what` in errors. Its callbacks reach
    /// the object attached as its target (`attach(_:)`), which must come before any of them.
    static func pipe(loop: UnsafeMutablePointer<uv_loop_t>, _ what: String) throws(DaemonError) -> LoopHandle {
        try LoopHandle(what, asHandle: cuv_pipe_as_handle, initialise: { uv_pipe_init(loop, $0, 0) })
    }

    /// The pipe as a stream, for listening, accepting, reading and writing.
    var stream: UnsafeMutablePointer<uv_stream_t> { cuv_pipe_as_stream(handle) }
}
