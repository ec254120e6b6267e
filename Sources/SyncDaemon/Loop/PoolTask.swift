import CUV

/// One piece of work for libuv's thread pool: `work` runs on a pool thread, then `completion`
/// on the loop thread with its result (`nil` when libuv could not run it). The loop keeps
/// serving meanwhile; it does not end while a task is pending.
///
/// Lifetime: the task retains itself from `uv_queue_work` until its after-work callback. The
/// pool thread only runs `work` and writes `output`, which the loop thread reads after it
/// (libuv's queue orders the two). Not `Sendable`.
final class PoolTask<Output: Sendable> {
    private let work: @Sendable () -> Output
    private let completion: (Output?) -> Void
    private let request: UnsafeMutablePointer<uv_work_t>
    private var output: Output?

    private init(work: @escaping @Sendable () -> Output, completion: @escaping (Output?) -> Void) {
        self.work = work
        self.completion = completion
        request = .allocate(capacity: 1)
    }

    deinit {
        request.deallocate()
    }

    /// Queues `work` on `loop`'s thread pool; `completion` gets its result on the loop thread.
    static func run(
        on loop: UnsafeMutablePointer<uv_loop_t>, work: @escaping @Sendable () -> Output,
        completion: @escaping (Output?) -> Void
    ) {
        let task = PoolTask(work: work, completion: completion)
        task.request.pointee.data = Unmanaged.passRetained(task as AnyObject).toOpaque()
        if uv_queue_work(loop, task.request, runPoolTask, finishPoolTask) != 0 {
            Unmanaged<AnyObject>.fromOpaque(task.request.pointee.data).release()
            completion(nil)
        }
    }
}

/// The part of `PoolTask` the C callbacks need, without its generic parameter.
private protocol PoolRunnable: AnyObject {
    func runOnPool()
    func finish(status: Int32)
}

extension PoolTask: PoolRunnable {
    fileprivate func runOnPool() {
        output = work()
    }

    fileprivate func finish(status: Int32) {
        completion(status == 0 ? output : nil)
    }
}

private let runPoolTask: uv_work_cb = { request in
    (Unmanaged<AnyObject>.fromOpaque(request!.pointee.data).takeUnretainedValue() as! any PoolRunnable).runOnPool()
}

private let finishPoolTask: uv_after_work_cb = { request, status in
    (Unmanaged<AnyObject>.fromOpaque(request!.pointee.data).takeRetainedValue() as! any PoolRunnable).finish(
        status: status)
}
