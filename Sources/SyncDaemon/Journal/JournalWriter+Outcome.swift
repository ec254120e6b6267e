import SyncJournal

/// What a `JournalWriter` reports: the outcome of each commit, what a job left, and where a
/// job ran.
extension JournalWriter {
    /// What became of a committed batch.
    enum Outcome {
        /// Everything up to `version` is on disk; `state` is the state at `version`.
        case durable(version: UInt64, state: State)
        /// A commit failed. Nothing after `durableVersion` is saved; the server drops what it
        /// applied while the commit ran too: those actions were applied on top of lost ones.
        case failed(durableVersion: UInt64, reason: String)
        /// A shared log only: other daemons appended `foreign` (durable, the next versions
        /// after the previous durable version, which is now the last of them). `unsaved` is
        /// the overtaken batch, in order, with the versions its actions were applied as: the
        /// server applies the foreign entries, re-runs these and what it applied since on top,
        /// and commits them again.
        case overtaken(foreign: [JournalEntry], unsaved: [JournalEntry])
        /// A commit may or may not be on disk, and the journal cannot tell now. Nothing after
        /// `durableVersion` is saved here. A journal of this daemon only: recovery at a
        /// restart must decide; a shared log: reading it later settles it.
        case uncertain(durableVersion: UInt64, reason: String)
        /// A shared log only: it no longer holds what this daemon read from it; nothing after
        /// `durableVersion` is saved, and nothing more may be written.
        case rewritten(durableVersion: UInt64, reason: String)
    }

    /// What the jobs that ended since the last `takeFinished()` left for the server.
    struct Finished {
        /// What became of the commits, in the order they ended.
        var outcomes: [Outcome] = []
        /// What delivers each read's result, in the order the reads were queued.
        var reads: [() -> Void] = []
    }

    /// How `startNextJob()` ran the job it started.
    enum Start {
        /// No job started: there is nothing to do.
        case none
        /// The job went to the thread pool; its outcome comes later.
        case queued
        /// The job ran on the loop thread; it is finished when `startNextJob()` returns.
        case ranInline
    }
}

/// Hears from a `JournalWriter` on the loop thread.
protocol JournalWriterDelegate: AnyObject {
    /// A job on the thread pool ended: its outcomes and reads wait in `takeFinished()`, and the
    /// writer is free for the next job.
    func journalWriterFinishedJob()
    /// A snapshot was encoded beside the commits: the next job saves it.
    func journalWriterEncodedSnapshot()
}
