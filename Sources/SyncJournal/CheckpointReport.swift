/// What the SQLite journal's checkpointer tells as its checkpoints fail or work again: each
/// change once, so that a disk that stays full is one report, not one per checkpoint.
///
/// While checkpoints fail, the WAL keeps every commit: in the room its file already has, then
/// growing while the disk lets it (after that, commits fail too); the first checkpoint that
/// works folds it back into the database file.
public enum CheckpointReport: Equatable, Sendable {
    /// Checkpoints started failing; the first failure.
    case failing(JournalError)
    /// A checkpoint worked after failing ones.
    case recovered
}
