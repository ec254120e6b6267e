import CUV

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

extension LoopHandle where Handle == uv_pipe_t {
    /// An unconnected pipe (a Unix socket) on `loop`, named `what` in errors. Its callbacks reach
    /// the object attached as its target (`attach(_:)`), which must come before any of them.
    static func pipe(loop: UnsafeMutablePointer<uv_loop_t>, _ what: String) throws(DaemonError) -> LoopHandle {
        try LoopHandle(what, asHandle: cuv_pipe_as_handle, initialise: { uv_pipe_init(loop, $0, 0) })
    }

    /// The pipe as a stream, for listening, accepting, reading and writing.
    var stream: UnsafeMutablePointer<uv_stream_t> { cuv_pipe_as_stream(handle) }
}
