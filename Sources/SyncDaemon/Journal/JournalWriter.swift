import CUV
import Glibc
import SyncEngine
import SyncJournal
import SyncProtocol

/// Makes applied actions durable, in one transaction per batch (group commit).
///
/// The server keeps the actions it applied since the last commit and, at the end of a loop
/// pass, hands them all to `startNextJob(entries:…)`, which commits them as one transaction;
/// whatever the engine applies while that commit runs goes into the next one. Reads of the
/// journal (history) ride along in the same job, after the commit, so the journal is only ever
/// used by one thread at a time. A job
/// that ends keeps its outcomes and its reads' results until the shell takes them with
/// `takeFinished()`: at once after an inline commit (`startNextJob()` says it ran inline), and
/// when the delegate hears that a pool job ended.
///
/// Where a job runs depends on its size. A small batch (at most `inlineCommitLimit` actions,
/// no snapshot to save, no reads) is committed on the loop thread itself, as Redis does with
/// `appendfsync always`: the loop waits for one fsync, but the action's ack leaves in the same
/// pass, without the two cross-thread wake-ups (loop → pool → loop) that cost more than the
/// fsync on a lightly loaded daemon. Anything larger, and every job started when one ends
/// (the daemon is under load), goes to libuv's thread pool, so the loop keeps reading and
/// applying while the disk works, and the next batch grows meanwhile.
///
/// ```
/// entries ─startNextJob()─┬─ small ─▶ journal.append on the loop ─▶ .ranInline
///                         └─ large ─▶ job on the thread pool ─▶ delegate: job finished
///                                     journal.append + reads
/// then: takeFinished() ─▶ the engine settles the outcomes and delivers the reads
/// ```
///
/// No commit waits for a snapshot's encoding. A commit whose batch makes a snapshot due (see
/// `SnapshotSchedule`) keeps the state and ledger it ends with; once it is durable, they are
/// encoded on the thread pool beside the next commits (a large state takes long to encode, and
/// a commit overtaken on a shared log would have encoded it for nothing), and the next job
/// saves the encoded snapshot (that job's acks wait for the write).
///
/// With a log other daemons share (PostgreSQL), a commit can be overtaken: another daemon
/// appended first. The job then reads what they appended, and the engine rebases what it
/// had not saved on it (`CommitOutcome.overtaken`); a job also reads their appends when asked to
/// catch up (`requestCatchUp()`, after the listener heard of them).
///
/// The writer never sees the app's state, only what encodes it for a snapshot (a
/// `StateEncoding`): it is not generic, so that a commit makes no runtime lookup of type
/// metadata.
///
/// Lifetime: `work.data` points at this writer, retained from `uv_queue_work` to the after-work
/// callback. Loop-confined, except `performJob`, which runs on a pool thread: while a job runs
/// the pool thread only reads `job` and `journal` and only writes `jobResults`, which the loop
/// thread reads after the job (libuv's queue orders the two). Not `Sendable`.
final class JournalWriter {
    /// One unit of work for the thread pool.
    private struct Job {
        var entries: [JournalEntry]
        /// A snapshot encoded since the last job, saved with this one.
        var snapshot: Snapshot?
        /// What a snapshot is made of once this commit is durable (the batch makes one due):
        /// encoded then beside the commits, never before one.
        var snapshotDue: SnapshotSource?
        var reads: [JournalRead]
        /// Read what other daemons appended after `durableVersion` (a shared log).
        var catchUp: Bool
        var durableVersion: UInt64
    }

    /// Most foreign entries read in one job; a longer catch-up takes several jobs.
    static var catchUpLimit: Int { 10_000 }

    /// Most journal reads done in one job.
    static var readsPerJob: Int { 8 }

    /// Most snapshots waiting to be encoded; beyond, the oldest waiting is left out (only a
    /// state that takes longer to encode than the interval's actions take to commit gets here).
    static var snapshotBacklog: Int { 4 }

    private let journal: any Journal
    private let loop: UnsafeMutablePointer<uv_loop_t>
    private let work: UnsafeMutablePointer<uv_work_t>
    /// When snapshots are due.
    private var snapshots: SnapshotSchedule
    private let inlineCommitLimit: Int
    private let logger: Logger
    /// Hears when a job on the thread pool ended.
    weak var delegate: (any JournalWriterDelegate)?
    private var finished = Finished()
    /// Whether a job on the thread pool ended since the last `startNextJob`: the daemon is
    /// under load, and the job started next goes there too, whatever its size (only that one).
    private var poolJobEnded = false
    private var pendingReads: [JournalRead] = []
    private var catchUpRequested = false
    private var job: Job?
    /// Snapshots due and not encoded yet, oldest first (one is encoded at a time).
    private var snapshotsToEncode: [SnapshotSource] = []
    /// Whether a snapshot is being encoded on the thread pool.
    private var isEncodingSnapshot = false
    /// Snapshots encoded and not saved yet, oldest first: each job saves one.
    private var encodedSnapshots: [Snapshot] = []
    private var jobResults = JournalJobResults()
    private(set) var durableVersion: UInt64
    private var lastSnapshotVersion: UInt64
    /// Commits that held more than zero actions, and the actions they held, for the batch-size log.
    private(set) var commitCount = 0
    private(set) var committedActionCount = 0
    /// Of those, the ones that ran on the loop thread.
    private(set) var inlineCommitCount = 0
    /// Commits a shared log refused because other daemons had appended first (each rebased
    /// and tried again).
    private(set) var overtakenCount = 0
    /// What the log says while a shared log's database is away.
    private var outage: SharedLogOutage

    /// A writer appending to `journal`, whose last durable version is `durableVersion`, with
    /// snapshots when `snapshots` has them due, committing batches of at most
    /// `inlineCommitLimit` actions on the loop thread (0: never).
    init(
        journal: any Journal, loop: UnsafeMutablePointer<uv_loop_t>, durableVersion: UInt64,
        lastSnapshotVersion: UInt64, snapshots: SnapshotSchedule, inlineCommitLimit: Int, logger: Logger
    ) {
        self.journal = journal
        self.loop = loop
        self.durableVersion = durableVersion
        self.lastSnapshotVersion = lastSnapshotVersion
        self.snapshots = snapshots
        self.inlineCommitLimit = inlineCommitLimit
        self.logger = logger
        outage = SharedLogOutage(logger: logger)
        work = .allocate(capacity: 1)
    }

    deinit {
        work.deallocate()
    }

    /// Takes what the jobs that ended since the last call left: their outcomes and the results
    /// of their reads.
    func takeFinished() -> Finished {
        defer { finished = Finished() }
        return finished
    }

    /// Whether a job is running on the thread pool.
    var isBusy: Bool { job != nil }

    /// Whether other daemons append to the same log.
    var isShared: Bool { journal.isShared }
    /// Where the journal is (never a password).
    var location: String { journal.location }

    /// Sets the durable version back to `version` after a rebase found foreign entries it cannot
    /// apply: the state served stays the one at `version` (and no more is written).
    func takeBackDurableVersion(to version: UInt64) {
        durableVersion = min(durableVersion, version)
    }

    /// The shared log's listener lost the database because of `problem`.
    func sharedLogBecameUnreachable(_ problem: String) {
        outage.failed(problem)
    }

    /// Asks the next job to read what other daemons appended to a shared log.
    func requestCatchUp() {
        catchUpRequested = true
    }

    /// Queues a read of up to `limit` entries after version `after`.
    func read(after: UInt64, limit: Int, completion: @escaping (Result<[JournalEntry], JournalError>) -> Void) {
        pendingReads.append(
            JournalRead(
                perform: { journal in
                    let result = Result { () throws(JournalError) in try journal.entries(after: after, limit: limit) }
                    return { completion(result) }
                },
                fail: { completion(.failure($0)) }))
    }

    /// Queues a read of what rebuilding the state at `version` starts from (see `PastStateBase`).
    func readBase(
        of version: UInt64, replayLimit: Int, completion: @escaping (Result<PastStateBase, JournalError>) -> Void
    ) {
        pendingReads.append(
            JournalRead(
                perform: { journal in
                    let result = Result { () throws(JournalError) in
                        try PastStateBase.read(version, replayLimit: replayLimit, from: journal)
                    }
                    return { completion(result) }
                },
                fail: { completion(.failure($0)) }))
    }

    /// Starts a job committing `entries` (the actions applied since the last commit, in order)
    /// with the reads queued, unless there is nothing to do; never while a job runs (see
    /// `isBusy`). `appliedState` encodes the state after the last of `entries`, asked for only
    /// when the batch makes a snapshot due. `appliedLedger` matches it; it is saved beside a
    /// snapshot, so that recovery need not replay the whole journal to rebuild it. A small
    /// commit runs on the loop thread unless the last job ran on the pool (see the type's
    /// summary).
    @discardableResult
    func startNextJob(
        entries: [JournalEntry], appliedState: @autoclosure () -> StateEncoding,
        appliedLedger: @autoclosure () -> DispatchLedger
    ) -> Start {
        precondition(job == nil, "startNextJob while a job runs")
        let mayRunInline = !poolJobEnded
        poolJobEnded = false
        guard !entries.isEmpty || !pendingReads.isEmpty || catchUpRequested || !encodedSnapshots.isEmpty else {
            return .none
        }
        // Reads ride along a few at a time, so that a burst of them cannot hold commits back.
        let reads = Array(pendingReads.prefix(Self.readsPerJob))
        var next = Job(
            entries: entries, snapshot: encodedSnapshots.first, reads: reads, catchUp: catchUpRequested,
            durableVersion: durableVersion)
        catchUpRequested = false
        if !encodedSnapshots.isEmpty { encodedSnapshots.removeFirst() }
        if let last = entries.last, snapshots.isDue(after: entries) {
            next.snapshotDue = SnapshotSource(state: appliedState(), ledger: appliedLedger(), version: last.version)
        }
        pendingReads.removeFirst(reads.count)
        job = next
        if mayRunInline, next.snapshot == nil, next.reads.isEmpty, !next.catchUp,
            next.entries.count <= inlineCommitLimit
        {
            performJob()
            jobFinished(status: 0, ranInline: true)
            return .ranInline
        }
        work.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let queued = uv_queue_work(loop, work, onPoolThread, afterPoolJob)
        if queued != 0 {
            Unmanaged<JournalWriter>.fromOpaque(work.pointee.data).release()
            jobFinished(status: queued)
        }
        return .queued
    }

    /// Commits `remaining` (what the engine applied and did not commit yet) and saves a
    /// snapshot of the final state (which `finalState` encodes) and ledger, on the calling
    /// thread. Only at shutdown, after the loop has stopped (so no job is running).
    func finish(remaining: [JournalEntry], finalState: StateEncoding, ledger: DispatchLedger, version: UInt64) {
        precondition(job == nil, "finish() while a commit is running")
        do {
            if let last = remaining.last {
                try journal.append(remaining, snapshot: nil)
                durableVersion = last.version
            }
            if version > lastSnapshotVersion, version == durableVersion {
                switch Self.encodeSnapshot(finalState, ledger: ledger, version: version) {
                case .success(let snapshot):
                    try journal.append([], snapshot: snapshot)
                    if let failure = journal.lastSnapshotFailure {
                        logger.log(.error, "the final snapshot at version \(version) was not saved: \(failure)")
                    } else {
                        lastSnapshotVersion = version
                    }
                case .failure(let reason):
                    logger.log(.error, reason.description)
                }
            }
        } catch {
            logger.log(.error, "final commit failed: \(error)")
        }
    }

    /// Runs on a thread-pool thread, or on the loop thread for an inline commit.
    fileprivate func performJob() {
        guard let job else { return }
        var results = JournalJobResults()
        if !job.entries.isEmpty || job.snapshot != nil {
            do {
                try journal.append(job.entries, snapshot: job.snapshot)
            } catch {
                results.commit = .failure(error)
            }
            if job.snapshot != nil { results.snapshotFailure = journal.lastSnapshotFailure }
        }
        var overtaken = false
        if case .failure(.overtaken) = results.commit { overtaken = true }
        if overtaken || (job.entries.isEmpty && job.catchUp) {
            results.foreign = Result { () throws(JournalError) in
                try journal.entries(after: job.durableVersion, limit: Self.catchUpLimit)
            }
        }
        results.reads = job.reads.map { read in read.perform(journal) }
        jobResults = results
    }

    /// Runs on the loop thread when the job is done: keeps what it left for `takeFinished()`.
    /// A pool job's end is told to the delegate, and the next job goes to the pool whatever
    /// its size: actions applied while a commit ran mean load, under which the loop should
    /// not wait for the disk.
    fileprivate func jobFinished(status: Int32, ranInline: Bool = false) {
        guard let ended = job else { return }
        job = nil
        poolJobEnded = !ranInline
        var results = jobResults
        jobResults = JournalJobResults()
        if status != 0 {
            let failure = JournalError.storage(
                path: "", operation: "running a commit", reason: String(cString: uv_err_name(status)))
            results = JournalJobResults(
                commit: .failure(failure), reads: ended.reads.map { read in { read.fail(failure) } })
        }
        if let snapshot = ended.snapshot {
            switch (results.commit, results.snapshotFailure) {
            case (.success, nil):
                lastSnapshotVersion = max(lastSnapshotVersion, snapshot.version)
            case (.failure(.overtaken), nil) where journal.isShared:
                // A shared log saves the snapshot beside an append that was overtaken too.
                lastSnapshotVersion = max(lastSnapshotVersion, snapshot.version)
            case (_, let failure?):
                // Saved at best, beside entries that went through or were overtaken: the next
                // one stays spaced as if this one were saved, so that a database that keeps
                // refusing them is not asked again at every multiple of the interval.
                logger.log(.error, "the snapshot at version \(snapshot.version) was not saved: \(failure)")
            case (.failure(let failure), nil):
                snapshots.snapshotLost()
                logger.log(.error, "the snapshot at version \(snapshot.version) was not saved: \(failure)")
            }
        }
        if case .success? = results.foreign { outage.succeeded() }
        if case .success(let foreign)? = results.foreign, !foreign.isEmpty {
            absorb(foreign, unsaved: ended.entries)
        } else if let last = ended.entries.last {
            switch results.commit {
            case .success:
                durableVersion = last.version
                snapshots.committed(ended.entries, withSnapshot: ended.snapshotDue != nil)
                commitCount += 1
                committedActionCount += ended.entries.count
                if ranInline { inlineCommitCount += 1 }
                outage.succeeded()
                if let due = ended.snapshotDue { encodeSnapshot(of: due) }
                report(.durable(version: last.version))
            case .failure(let error):
                // Overtaken, and the newer entries could not be read: that failure is the cause.
                var cause = error
                if case .failure(let readError)? = results.foreign { cause = readError }
                let versions = "versions \(ended.entries.first!.version)-\(last.version)"
                switch cause {
                case .uncertain(_, let reason):
                    logger.log(.error, "commit of \(versions) may or may not have been saved: \(reason)")
                    report(.uncertain(durableVersion: durableVersion, reason: reason))
                case .rewritten:
                    logger.log(.error, "commit of \(versions) failed: \(cause)")
                    report(.rewritten(durableVersion: durableVersion, reason: cause.description))
                case .storage where journal.isShared:
                    outage.failed("commit of \(versions) failed: \(cause)")
                    report(.failed(durableVersion: durableVersion, reason: cause.description))
                default:
                    logger.log(.error, "commit of \(versions) failed: \(cause)")
                    report(.failed(durableVersion: durableVersion, reason: cause.description))
                }
            }
        } else if case .failure(let error)? = results.foreign {
            if case .rewritten = error {
                logger.log(.error, "reading the shared log failed: \(error)")
                report(.rewritten(durableVersion: durableVersion, reason: error.description))
            } else {
                outage.failed("catching up with the shared log failed: \(error)")
            }
        }
        finished.reads += results.reads
        if !ranInline { delegate?.journalWriterFinishedJob() }
    }

    private func report(_ outcome: CommitOutcome) {
        finished.outcomes.append(outcome)
    }

    /// Encodes a snapshot of `source` (durable) on the thread pool, beside the commits, and
    /// keeps it for a later job to save: encoding a large state takes long, and no commit
    /// waits for it. Snapshots are encoded one at a time, in version order.
    private func encodeSnapshot(of source: SnapshotSource) {
        snapshotsToEncode.append(source)
        if snapshotsToEncode.count > Self.snapshotBacklog {
            snapshotsToEncode.removeFirst()
            snapshots.snapshotLost()
        }
        encodeNextSnapshot()
    }

    private func encodeNextSnapshot() {
        guard !isEncodingSnapshot, !snapshotsToEncode.isEmpty else { return }
        let source = snapshotsToEncode.removeFirst()
        isEncodingSnapshot = true
        PoolTask.run(
            on: loop,
            work: {
                let result = Self.encodeSnapshot(source.state, ledger: source.ledger, version: source.version)
                // Encoding a large state frees as much as it allocated, in small blocks between
                // live ones, which the heap would otherwise keep (see `smallestTrimmedEncoding`).
                if case .success(let snapshot) = result,
                    SnapshotSchedule.bytes(of: snapshot) >= MemoryTuning.smallestTrimmedEncoding
                {
                    MemoryTuning.returnFreedMemory()
                }
                return result
            },
            completion: { [weak self] result in
                guard let self else { return }
                isEncodingSnapshot = false
                defer { encodeNextSnapshot() }
                switch result {
                case .success(let snapshot)?:
                    snapshots.snapshotEncoded(bytes: SnapshotSchedule.bytes(of: snapshot))
                    encodedSnapshots.append(snapshot)
                    delegate?.journalWriterEncodedSnapshot()
                case .failure(let failure)?:
                    snapshots.snapshotLost()
                    logger.log(.error, failure.description)
                case nil:
                    snapshots.snapshotLost()
                    logger.log(
                        .error, "cannot encode a snapshot at version \(source.version): the thread pool refused the job"
                    )
                }
            })
    }

    /// Other daemons appended `foreign`: they are durable, and the batch this job did not save
    /// goes back to the engine to be rebased on them.
    private func absorb(_ foreign: [JournalEntry], unsaved: [JournalEntry]) {
        if !unsaved.isEmpty { overtakenCount += 1 }
        snapshots.committed(foreign, withSnapshot: false)
        durableVersion = foreign.last!.version
        logger.log(.debug, "other daemons appended versions \(foreign.first!.version)-\(durableVersion)")
        report(.overtaken(foreign: foreign, unsaved: unsaved))
    }

    /// The snapshot of the state `state` encodes and of `ledger` at `version`, or why it cannot
    /// be made. Pure: runs on the pool thread too.
    private static func encodeSnapshot(_ state: StateEncoding, ledger: DispatchLedger, version: UInt64) -> Result<
        Snapshot, SnapshotFailure
    > {
        do {
            return .success(Snapshot(version: version, state: try state.encode(), ledger: ledger.encoded()))
        } catch {
            return .failure(SnapshotFailure(description: "cannot encode a snapshot at version \(version): \(error)"))
        }
    }
}

/// What a snapshot is made of: the durable state (as what encodes it), the dispatch ledger
/// matching it, its version.
struct SnapshotSource: Sendable {
    let state: StateEncoding
    let ledger: DispatchLedger
    let version: UInt64
}

private let onPoolThread: uv_work_cb = { work in
    Unmanaged<JournalWriter>.fromOpaque(work!.pointee.data).takeUnretainedValue().performJob()
}

private let afterPoolJob: uv_after_work_cb = { work, status in
    Unmanaged<JournalWriter>.fromOpaque(work!.pointee.data).takeRetainedValue().jobFinished(
        status: status, ranInline: false)
}
