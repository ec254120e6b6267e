import Glibc
import SyncLock

/// Runs tasks on a client's connection thread (`SyncClient.executor`), for code that talks to
/// the daemon one request at a time and wants each reply to resume it where it arrived.
///
/// Without it, a reply is read on the connection thread and the task waiting for it resumes
/// on Swift's cooperative pool: one more thread to wake per reply, which on a small virtual
/// machine costs more than the daemon's own work for the request. A task that prefers this
/// executor (`withTaskExecutorPreference(client.executor) { … }`) resumes on the thread that
/// read its reply, right after the read, and sends its next request from there.
///
/// ```
///  connection thread: poll(socket, jobs) ─▶ reply ─▶ resume the waiting task (a job) ─▶ run it
///                          ▲                                                            │
///                          └───────────── it sends its next request and waits ◀─────────┘
/// ```
///
/// What runs here holds up the reading of every reply and update of the client while it runs:
/// it suits request loops and light consumers, not long computations. Once the client is
/// closed and its thread has ended, jobs go to the global concurrent executor instead.
public final class ConnectionExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        /// The connection thread, once it runs.
        var thread: pthread_t?
        /// Whether the connection thread has ended: jobs go to the global executor.
        var ended = false
    }

    private let queue = Locked(Queue())
    /// A socket pair that wakes the connection thread from `poll` when jobs arrive: `enqueue`
    /// sends a byte on `signal` when the queue was empty, the thread polls `waiting`.
    private let wakeUp: (waiting: Int32, signal: Int32)

    /// The file descriptor the connection thread polls for jobs (readable when there are some).
    var descriptor: Int32 { wakeUp.waiting }

    init() throws(SyncClientError) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw .connectionClosed(.threadNotStarted)
        }
        wakeUp = (pair[0], pair[1])
    }

    deinit {
        close(wakeUp.waiting)
        close(wakeUp.signal)
    }

    /// Whether the caller runs on the connection thread (and so holds up the client's reading).
    public var isCurrent: Bool {
        queue.withLock { queue in queue.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Queues `job` for the connection thread, or hands it to the global concurrent executor
    /// once that thread has ended.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let (accepted, wasEmpty) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.ended else { return (false, false) }
            queue.jobs.append(unowned)
            return (true, queue.jobs.count == 1)
        }
        guard accepted else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
            return
        }
        if wasEmpty {
            var byte: UInt8 = 1
            // A full socket already holds a wake-up: nothing to retry.
            _ = send(wakeUp.signal, &byte, 1, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
    }

    /// The calling thread is the connection thread, from now until `end()`.
    func begin() {
        queue.withLock { $0.thread = pthread_self() }
    }

    /// Runs the jobs queued so far, and those they queue meanwhile. For the connection thread.
    func runPending() {
        while true {
            drainWakeUp()
            let jobs = queue.withLock { queue in
                defer { queue.jobs = [] }
                return queue.jobs
            }
            if jobs.isEmpty { return }
            let executor = asUnownedTaskExecutor()
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }

    /// Waits up to `duration` for jobs, running those that arrive. For the connection thread.
    func runJobs(for duration: Duration) {
        let deadline = ContinuousClock.now + duration
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            var ready = pollfd(fd: wakeUp.waiting, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, UnixSocket.milliseconds(until: deadline)) > 0 { runPending() }
        }
    }

    /// The connection thread ends: what is queued, and every later job, goes to the global
    /// concurrent executor.
    func end() {
        let jobs = queue.withLock { queue in
            queue.ended = true
            queue.thread = nil
            defer { queue.jobs = [] }
            return queue.jobs
        }
        for job in jobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    private func drainWakeUp() {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { bytes in
            while recv(wakeUp.waiting, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
    }
}
