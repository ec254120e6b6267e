import SyncEngine
import SyncJournal

/// What a `JournalWriter` reports: what a job left (the outcome of each commit, a
/// `CommitOutcome`), and where a job ran.
extension JournalWriter {
    /// What the jobs that ended since the last `takeFinished()` left for the engine: one job's,
    /// as the shell takes them as soon as a job ends and starts the next only after (the
    /// engine's `CommitOutcome.durable` relies on it).
    struct Finished {
        /// What became of the commits, in the order they ended.
        var outcomes: [CommitOutcome] = []
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
