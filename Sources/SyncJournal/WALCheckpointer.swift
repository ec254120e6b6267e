import CSQLite
import Glibc

/// Folds the WAL back into the database file on a thread of its own, so that no commit waits
/// for a checkpoint.
///
/// By default SQLite checkpoints from the committing connection once the WAL holds 1000 pages:
/// the commit that crosses that line also copies the pages into the database file and fsyncs
/// it before it returns. On this kind of disk that held single commits (on the loop thread, for
/// an inline one) for 3 to 80 ms (docs/PERFORMANCE.md, figure 3). With a checkpointer the
/// writer's connection never checkpoints: its WAL hook wakes this thread, whose own connection
/// runs a passive checkpoint, which never blocks the writer; the writer starts the WAL from its
/// beginning again at the first commit after a checkpoint that copied every page.
final class WALCheckpointer: @unchecked Sendable {
    // @unchecked: `isDue` and `isStopping` are only touched while `mutex` is held, and the
    // database only on the checkpointer's thread (and in `stop` after that thread ended).

    /// WAL pages after which a checkpoint is due (SQLite's own default).
    static let pageThreshold: Int32 = 1000

    /// The checkpointer's own connection, closed by `stop`.
    private var database: SQLiteDatabase?
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)
    private let condition: UnsafeMutablePointer<pthread_cond_t> = .allocate(capacity: 1)
    private var isDue = false
    private var isStopping = false
    private var thread = pthread_t()
    private var isRunning = false

    /// A checkpointer of the journal at `path`, with a connection of its own; `start` starts
    /// its thread.
    init(path: String) throws(JournalError) {
        let database = try SQLiteDatabase(path: path, create: false)
        // A connection opens the WAL only once it has read the database; until then a
        // checkpoint through it does nothing.
        try database.execute("PRAGMA journal_mode=WAL", operation: "opening the WAL")
        self.database = database
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Starts the thread, and hands the checkpoints of `writer`'s connection to it.
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
        writer.onWALCommit { [weak self] pages in
            if pages >= Self.pageThreshold { self?.checkpointIsDue() }
        }
    }

    /// Ends the thread (after the checkpoint it runs, if any) and closes its connection, so
    /// that the writer's connection, closing last, folds the rest of the WAL into the file
    /// and removes it. Safe to call more than once.
    func stop() {
        if isRunning {
            isRunning = false
            signal { isStopping = true }
            pthread_join(thread, nil)
        }
        database = nil
    }

    private func checkpointIsDue() {
        signal { isDue = true }
    }

    private func signal(_ change: () -> Void) {
        pthread_mutex_lock(mutex)
        change()
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// The thread's body: a passive checkpoint each time one is due, until `stop`.
    private func run() {
        while true {
            pthread_mutex_lock(mutex)
            while !isDue && !isStopping { pthread_cond_wait(condition, mutex) }
            let stopping = isStopping
            isDue = false
            pthread_mutex_unlock(mutex)
            if stopping { return }
            // A checkpoint that fails (the disk is full, say) leaves the WAL as it was: the
            // next commit past the threshold tries again, and closing the journal does too.
            try? database?.checkpointPassively()
        }
    }
}
