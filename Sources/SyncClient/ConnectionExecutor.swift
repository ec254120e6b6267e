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
/// it suits request loops and light consumers, not long computations nor blocking calls (a
/// blocking wait for a reply would never end). Jobs run whenever the thread would wait: between
/// reads, and between reconnection attempts; not while it connects or routes a frame. Once the
/// thread has ended (the client closed, a lost one-shot connection, reconnection given up),
/// jobs go to the global concurrent executor instead.
public final class ConnectionExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        /// The connection thread, once it runs.
        var thread: pthread_t?
        /// Whether the connection thread has ended: jobs go to the global executor.
        var ended = false
    }

    private let queue = Locked(Queue())
    /// What wakes the connection thread from `poll`: `enqueue` signals it when the queue was
    /// empty. The client's socket writers share it (`UnixSocket`).
    let wakeUp: WakeUpPair

    /// An executor for a new client; throws `.connectionClosed(.threadNotStarted)` when the
    /// wake-up pair cannot be made.
    init() throws(SyncClientError) {
        wakeUp = try WakeUpPair()
    }

    /// Whether the caller runs on the connection thread (and so holds up the client's reading).
    public var isCurrent: Bool {
        queue.withLock { queue in queue.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Queues `job` for the connection thread, or hands it to the global concurrent executor
    /// once that thread has ended.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let (accepted, wakesThread) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.ended else { return (false, false) }
            queue.jobs.append(unowned)
            // The connection thread looks at the queue before it waits: it needs no wake-up
            // for its own jobs (a reply resuming its caller), nor for a queue already signalled.
            let onThread = queue.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            return (true, queue.jobs.count == 1 && !onThread)
        }
        guard accepted else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
            return
        }
        if wakesThread { wakeUp.signal() }
    }

    /// The calling thread is the connection thread, from now until `end()`.
    func begin() {
        queue.withLock { $0.thread = pthread_self() }
    }

    /// Runs the jobs queued so far; those they queue wait for the next call, so that the thread
    /// goes back to its socket between batches however busy its tasks are. For the connection
    /// thread, before each wait: it must not block while `hasPending`.
    func runPending() {
        let jobs = queue.withLock { queue in
            defer { queue.jobs = [] }
            return queue.jobs
        }
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }

    /// Whether jobs are queued.
    var hasPending: Bool { queue.withLock { !$0.jobs.isEmpty } }

    /// The `poll` timeout for a wait that would take `timeout` milliseconds (-1: for ever): none
    /// while jobs are queued.
    func pollTimeout(_ timeout: Int32) -> Int32 {
        hasPending ? 0 : timeout
    }

    /// Waits up to `duration`, running the jobs that arrive meanwhile. For the connection thread.
    func runJobs(for duration: Duration) {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            runPending()
            var ready = pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, pollTimeout(UnixSocket.milliseconds(until: deadline))) > 0 { wakeUp.drain() }
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
}
