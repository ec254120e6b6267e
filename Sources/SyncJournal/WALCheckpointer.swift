import CSQLite
import Glibc
import SyncLock

/// Folds the WAL back into the database file on a thread of its own, so that no commit waits
/// for a checkpoint.
///
/// By default SQLite checkpoints from the committing connection once the WAL holds 1000 pages:
/// the commit that crosses that line also copies the pages into the database file and fsyncs
/// it before it returns. On this kind of disk that held single commits (on the loop thread, for
/// an inline one) for 3 to 80 ms (docs/PERFORMANCE.md, figure 3). With a checkpointer the
/// writer's connection does not checkpoint: its WAL hook wakes this thread, whose own
/// connection runs a passive checkpoint, which never blocks the writer.
///
/// The thread checkpoints once per `batchPages` pages the WAL grows past `pageThreshold`
/// (`CheckpointSchedule`), not after every commit: each checkpoint syncs the WAL and the
/// database file, and one per commit (as it once ran, under a steady stream of commits) gave
/// every durable action up to two more syncs of the disk beside its own, and a wake-up of this
/// thread. What the last batch left uncopied, the thread copies once the writer has been quiet
/// for `quietSpell` (no commit at all), so that after a pause the next commit starts the WAL
/// again from its beginning, where its pages are written over in place.
///
/// SQLite starts the WAL from its beginning again only at a commit that finds every page of it
/// copied, and a checkpoint beside a steady stream of commits copies all but the newest ones.
/// So, as a backstop, the commit that finds the WAL at `backstopPages` waits for the thread's
/// checkpoint under way, if any, and finishes the copy itself (no other commit can come
/// meanwhile): the WAL stays below about `backstopPages`, at the cost of that one commit's
/// time (about a batch's copy), and only under a load that never pauses for `quietSpell`.
/// (Commits that finished every copy as soon as few pages were left, to make the WAL start
/// again sooner, were tried: figure 3's worst round got worse, 233 ms against 123 ms.)
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `schedule` is only touched on the writer's thread (in its WAL hook); the
    // variables below `mutex` only while it is held; `database` only on the thread, and by
    // `stop` once the thread ended; `isCheckpointing` keeps the thread's checkpoint and a
    // commit's (through the writer's connection) apart; `thread` and `isRunning` only by the
    // journal's own thread, which calls `start` and `stop`, never both at once.

    /// When checkpoints are asked for; its threshold is SQLite's own default of 1000 pages,
    /// unless a test sets less.
    private var schedule: CheckpointSchedule
    /// How long the writer must have committed nothing before the thread copies what the last
    /// batch left (figure 1's one-at-a-time commits come every quarter of a millisecond).
    static let quietSpell: Duration = .milliseconds(20)

    /// The checkpointer's own connection, closed by `stop`.
    private var database: SQLiteDatabase?
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)
    private let condition: UnsafeMutablePointer<pthread_cond_t> = .allocate(capacity: 1)
    private var isDue = false
    /// Whether pages past the threshold are in the WAL that no checkpoint under way or done
    /// will copy: a commit within a batch sets it, and so does a checkpoint that a reader
    /// kept from copying everything; a checkpoint that starts clears it.
    private var hasUncopiedPages = false
    /// Commits of the writer so far (they wrap around), for the thread to tell a quiet spell.
    private var commits: UInt = 0
    private var isStopping = false
    /// Whether a checkpoint runs, on the thread or in a commit.
    private var isCheckpointing = false
    private var thread = pthread_t()
    private var isRunning = false
    /// Checkpoints the thread completed.
    let completedCheckpoints = Locked(0)
    /// Checkpoints that failed, of the thread's or a commit's.
    let failedCheckpoints = Locked(0)
    /// Whether the last checkpoint, of the thread's or a commit's, failed.
    private var isFailing = false
    /// Told when checkpoints start failing and when one works again.
    private let reports: (@Sendable (CheckpointReport) -> Void)?
    /// Held from deciding a report (under `mutex`) to the end of telling it, so that reports
    /// are told in the order they were decided.
    private let reporting: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)

    /// A checkpointer of the journal at `path`, with a connection of its own, due past
    /// `pageThreshold` WAL pages, telling `reports` when checkpoints start failing and when
    /// one works again; `start` starts its thread.
    init(
        path: String, pageThreshold: Int32 = 1000, reports: (@Sendable (CheckpointReport) -> Void)? = nil
    ) throws(JournalError) {
        self.reports = reports
        // First, so that `deinit` always finds them made, even when opening throws. The
        // condition's timed waits count on the monotonic clock.
        pthread_mutex_init(mutex, nil)
        pthread_mutex_init(reporting, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        schedule = CheckpointSchedule(pageThreshold: pageThreshold)
        let database = try SQLiteDatabase(path: path, create: false)
        database.waitForLocks()
        // A connection opens the WAL only once it has read the database; until then a
        // checkpoint through it does nothing. A checkpoint syncs the database file before the
        // WAL may start again, as the writer's commits sync the WAL.
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", operation: "opening the WAL")
        self.database = database
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        pthread_mutex_destroy(reporting)
        condition.deallocate()
        mutex.deallocate()
        reporting.deallocate()
    }

    /// Starts the thread, and hands the checkpoints of `writer`'s connection to it; `writer`
    /// must wait for locks (`SQLiteDatabase.waitForLocks`), since the two connections' locks
    /// meet.
    func start(checkpointingFor writer: SQLiteDatabase) throws(JournalError) {
        let started = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<WALCheckpointer>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(self).toOpaque())
        guard started == 0 else {
            Unmanaged.passUnretained(self).release()
            throw .storage(
                path: database?.path ?? "", operation: "starting the checkpoint thread",
                reason: String(cString: strerror(started)))
        }
        isRunning = true
        // The writer holds this hook: it must not hold the writer in turn.
        writer.onWALCommit { [weak self, unowned writer] pages in
            self?.committed(walPages: pages, by: writer)
        }
    }

    /// Ends the thread (after the checkpoint it runs, if any) and closes its connection, so
    /// that the writer's connection, closing last, folds the rest of the WAL into the file
    /// and removes it. Safe to call more than once.
    func stop() {
        if isRunning {
            isRunning = false
            locked { isStopping = true }
            pthread_join(thread, nil)
        }
        database = nil
    }

    /// WAL pages at which a commit finishes the copy itself (see the type's summary).
    var backstopPages: Int32 { schedule.backstopPages }

    /// After each commit of `writer`, on its thread: counts it, wakes the thread when the
    /// schedule asks for a checkpoint or when the commit leaves the first pages past the
    /// threshold no checkpoint will copy (and only then, so that other commits cost no
    /// wake-up), or, at the backstop, finishes the copy.
    private func committed(walPages pages: Int32, by writer: SQLiteDatabase) {
        let decision = schedule.afterCommit(walPages: pages)
        pthread_mutex_lock(mutex)
        commits &+= 1
        switch decision {
        case .nothing:
            if pages >= schedule.pageThreshold && !hasUncopiedPages {
                hasUncopiedPages = true
                pthread_cond_broadcast(condition)
            }
            pthread_mutex_unlock(mutex)
        case .wakeTheThread:
            isDue = true
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        case .copyHere:
            while isCheckpointing { pthread_cond_wait(condition, mutex) }
            // This copy is the whole of what is due, and no commit comes before it ends.
            isDue = false
            hasUncopiedPages = false
            isCheckpointing = true
            pthread_mutex_unlock(mutex)
            checkpointEnded(Result { () throws(JournalError) in try writer.checkpointPassively() })
        }
    }

    /// After a checkpoint of the thread's or a commit's (whether it copied every page, or
    /// why it failed): the next may start, and pages it could not copy (a reader held them)
    /// are left for the thread once the writer is quiet. A checkpoint that failed (the disk is
    /// full, say) leaves the WAL as it was, and the next batch or quiet spell a commit brings
    /// tries again, as closing the journal does; the first failure after a success, and the
    /// first success after a failure, are reported.
    private func checkpointEnded(_ outcome: Result<Bool, JournalError>) {
        pthread_mutex_lock(mutex)
        isCheckpointing = false
        let wasFailing = isFailing
        let report: CheckpointReport?
        switch outcome {
        case .success(let copiedAll):
            if !copiedAll { hasUncopiedPages = true }
            isFailing = false
            report = wasFailing ? .recovered : nil
        case .failure(let error):
            isFailing = true
            failedCheckpoints.withLock { $0 += 1 }
            report = wasFailing ? nil : .failing(error)
        }
        // The next checkpoint to end decides its report after this one and waits here for
        // this one to be told: the last report told is always the last state.
        pthread_mutex_lock(reporting)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        if let report { reports?(report) }
        pthread_mutex_unlock(reporting)
    }

    /// Runs `body` holding `mutex`, then wakes every waiter (the thread, a commit at the backstop).
    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body()
    }

    /// The thread's body: a passive checkpoint each time one is due, and one more once the
    /// writer is quiet while pages are left uncopied, until `stop`.
    private func run() {
        guard let database else { return }
        while waitForWork() {
            let outcome = Result { () throws(JournalError) in try database.checkpointPassively() }
            checkpointEnded(outcome)
            if case .success = outcome { completedCheckpoints.withLock { $0 += 1 } }
        }
    }

    /// Waits until a checkpoint is due, or, with pages left uncopied, until the writer has
    /// committed nothing for `quietSpell`, and marks the thread's checkpoint as running;
    /// false when the thread is to stop instead.
    private func waitForWork() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var commitsBefore = commits
        var deadline = Self.monotonicTime(after: Self.quietSpell)
        var isQuiet = false
        while !isStopping && (isCheckpointing || !(isDue || (isQuiet && hasUncopiedPages))) {
            if isCheckpointing || !hasUncopiedPages {
                pthread_cond_wait(condition, mutex)
                commitsBefore = commits
                deadline = Self.monotonicTime(after: Self.quietSpell)
                isQuiet = false
            } else if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                isQuiet = commits == commitsBefore
                commitsBefore = commits
                deadline = Self.monotonicTime(after: Self.quietSpell)
            }
        }
        guard !isStopping else { return false }
        isDue = false
        hasUncopiedPages = false
        isCheckpointing = true
        return true
    }

    /// The monotonic clock's time `duration` from now, for `pthread_cond_timedwait`.
    private static func monotonicTime(after duration: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        return timespec(
            tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
