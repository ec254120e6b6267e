/// When the WAL's checkpoints are asked for, decided from the WAL's size after each commit:
/// one checkpoint of the checkpointer's thread per `batchPages` pages past `pageThreshold`, and
/// a copy inside the commit at `backstopPages` (see `WALCheckpointer`). A value the writer's
/// thread keeps and alone changes.
struct CheckpointSchedule {
    /// What a commit asks of the checkpointer.
    enum Decision: Equatable {
        /// Nothing: the WAL is below the threshold, or within the batch last asked for.
        case nothing
        /// A checkpoint on the checkpointer's thread.
        case wakeTheThread
        /// The copy, inside this commit: the WAL reached the backstop.
        case copyHere
    }

    /// WAL pages after which checkpoints are due.
    let pageThreshold: Int32
    /// WAL pages added past `pageThreshold` between two checkpoints of the thread.
    var batchPages: Int32 { max(1, pageThreshold / 4) }
    /// WAL pages at which a commit finishes the copy itself.
    var backstopPages: Int32 { pageThreshold * 10 }

    /// The WAL's pages after the commit before.
    private var lastPages: Int32 = 0
    /// The WAL's pages when a checkpoint was last asked for, since the WAL last started again.
    private var askedAtPages: Int32 = 0

    init(pageThreshold: Int32) {
        self.pageThreshold = pageThreshold
    }

    /// What the commit that left the WAL at `pages` pages asks for.
    mutating func afterCommit(walPages pages: Int32) -> Decision {
        // Fewer pages than after the commit before: the WAL started again from its beginning.
        if pages < lastPages { askedAtPages = 0 }
        lastPages = pages
        guard pages >= pageThreshold else { return .nothing }
        if pages >= backstopPages {
            askedAtPages = pages
            return .copyHere
        }
        guard pages >= askedAtPages + batchPages else { return .nothing }
        askedAtPages = pages
        return .wakeTheThread
    }
}
