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
/// The thread checkpoints once per `batchPages` pages the WAL grows past `pageThreshold`, not
/// after every commit: each checkpoint syncs the WAL and the database file, and one per commit
/// (as it once ran, under a steady stream of commits) gave every durable action up to two more
/// syncs of the disk beside its own, and a wake-up of this thread.
///
/// SQLite starts the WAL from its beginning again only at a commit that finds every page of it
/// copied, and a checkpoint beside a steady stream of commits copies all but the newest ones.
/// So, as a backstop, the commit that finds the WAL at `backstopPages` waits for the thread's
/// checkpoint under way, if any, and finishes the copy itself (no other commit can come
/// meanwhile): the WAL stays below about `backstopPages`, at the cost of that one commit's
/// time (about a batch's copy), and only under a load that never pauses.
/// (Commits that finished every copy as soon as few pages were left, to make the WAL start
/// again sooner, were tried: figure 3's worst round got worse, 233 ms against 123 ms.)
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: the variables below `mutex` are only touched while it is held; `database`
    // only on the thread, and by `stop` once the thread ended; `isCheckpointing` keeps the
    // thread's checkpoint and a commit's (through the writer's connection) apart; `thread` and
    // `isRunning` only by the journal's own thread, which calls `start` and `stop`, never both
    // at once.

    /// WAL pages after which a checkpoint is due (SQLite's own default, unless a test sets less).
    let pageThreshold: Int32
    /// WAL pages added past `pageThreshold` between two checkpoints of the thread.
    var batchPages: Int32 { max(1, pageThreshold / 4) }
    /// WAL pages at which a commit finishes the copy itself (see the type's summary).
    var backstopPages: Int32 { pageThreshold * 10 }

    /// The checkpointer's own connection, closed by `stop`.
    private var database: SQLiteDatabase?
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)
    private let condition: UnsafeMutablePointer<pthread_cond_t> = .allocate(capacity: 1)
    private var isDue = false
    /// The WAL's pages when the last checkpoint was made due (0 once the WAL started again).
    private var dueAtPages: Int32 = 0
    private var isStopping = false
    /// Whether a checkpoint runs, on the thread or in a commit.
    private var isCheckpointing = false
    private var thread = pthread_t()
    private var isRunning = false
    /// Checkpoints the thread completed.
    let completedCheckpoints = Locked(0)

    /// A checkpointer of the journal at `path`, with a connection of its own, due every
    /// `pageThreshold` WAL pages; `start` starts its thread.
    init(path: String, pageThreshold: Int32 = 1000) throws(JournalError) {
        // First, so that `deinit` always finds them made, even when opening throws.
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        self.pageThreshold = pageThreshold
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
        condition.deallocate()
        mutex.deallocate()
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

    /// After each commit of `writer`, on its thread: wakes the thread once per batch (and only
    /// then, so that no other commit costs a wake-up), or, at the backstop, finishes the copy.
    private func committed(walPages pages: Int32, by writer: SQLiteDatabase) {
        guard pages >= pageThreshold else { return }
        pthread_mutex_lock(mutex)
        if pages < dueAtPages { dueAtPages = 0 }
        guard pages >= backstopPages else {
            if pages >= dueAtPages + batchPages {
                isDue = true
                dueAtPages = pages
                pthread_cond_broadcast(condition)
            }
            pthread_mutex_unlock(mutex)
            return
        }
        while isCheckpointing { pthread_cond_wait(condition, mutex) }
        // This copy is the whole of what is due.
        isDue = false
        isCheckpointing = true
        pthread_mutex_unlock(mutex)
        try? writer.checkpointPassively()
        locked { isCheckpointing = false }
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

    /// The thread's body: a passive checkpoint each time one is due, until `stop`.
    private func run() {
        while true {
            pthread_mutex_lock(mutex)
            while !isStopping && (!isDue || isCheckpointing) { pthread_cond_wait(condition, mutex) }
            let stopping = isStopping
            isDue = false
            isCheckpointing = !stopping
            pthread_mutex_unlock(mutex)
            if stopping { return }
            // A checkpoint that fails (the disk is full, say) leaves the WAL as it was: the
            // next commit past the threshold tries again, and closing the journal does too.
            let completed = (try? database?.checkpointPassively()) != nil
            locked { isCheckpointing = false }
            if completed { completedCheckpoints.withLock { $0 += 1 } }
        }
    }
}
