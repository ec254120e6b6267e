import SyncJournal

/// What became of a committed batch, as the journal writer reports it. Not generic, and not
/// nested in the generic engine, so that its metadata is not looked up at run time on every
/// commit.
package enum CommitOutcome {
    /// Everything up to `version` is on disk: the batch of the journal job asked for last
    /// ends there, and the engine's `committingState` is the state at `version`.
    case durable(version: UInt64)
    /// A commit failed. Nothing after `durableVersion` is saved; the engine drops what it
    /// applied while the commit ran too: those actions were applied on top of lost ones.
    case failed(durableVersion: UInt64, reason: String)
    /// A shared log only: other daemons appended `foreign` (durable, the next versions
    /// after the previous durable version, which is now the last of them). `unsaved` is
    /// the overtaken batch, in order, with the versions its actions were applied as: the
    /// engine applies the foreign entries, re-runs these and what it applied since on top,
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
