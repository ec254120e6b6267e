import SyncJournal

/// Where the journal job is, as the engine asked for it.
enum JournalJobState: Equatable {
    /// No job runs: the next pass end starts one if there is anything to do.
    case idle
    /// `startJournalJob` was asked for; `journalJobStarted` will say how it went.
    case starting
    /// A job runs off the loop; `journalJobFinished` will report it.
    case running
}

/// The end of a loop pass, where what was applied becomes durable, visible and answered. Each
/// step is in a file named after it:
///
/// ```
/// publish   ViewHub.swift            an update for each subscriber whose model changed
/// ack       Engine+Acks.swift        the acks of what became durable, after its updates
/// write     Engine+Connections.swift one write per connection, with all of the above
/// commit    startJournalJob          what was applied since the last commit, as one transaction
/// settle    Engine+Commits.swift     its outcome: at once when it ran inline (then publish, ack
///                                    and write again); when the job ends, from off the loop
/// ```
///
/// A small commit runs inline (see the daemon's `JournalWriter`): what it made durable is
/// answered in the same pass, and what was ready before it was written first, so that it does
/// not wait for the fsync. The pass ends in two steps: `passEnded` answers and writes, then
/// asks for the journal job; `journalJobStarted` settles an inline commit and finishes the pass.
extension Engine {
    /// The first step of a pass end.
    func passDidEnd() {
        passEndWanted = false
        answerWhatIsDurable()
        guard journalJob == .idle else {
            finishPass()
            return
        }
        var batch: [JournalEntry] = []
        swap(&batch, &uncommitted)
        journalJob = .starting
        committingState = store.state
        committingVersion = batch.last?.version
        emit(.startJournalJob(entries: batch, ledger: ledger))
    }

    /// The second step, once the journal job asked for started (or had nothing to do).
    func journalJobDidStart(_ start: JournalJobStart) {
        switch start {
        case .none:
            journalJob = .idle
        case .queued:
            journalJob = .running
        case .ranInline(let outcomes):
            journalJob = .idle
            settle(outcomes)
            answerWhatIsDurable()
        }
        finishPass()
    }

    /// Goes on with a shutdown, writes what is left, and lets the pass end rest when nothing
    /// more is wanted.
    private func finishPass() {
        if case .finishingCommits = shutdown { continueShutdownIfIdle() }
        writeConnections()
        if connectionsToFlush.isEmpty && !passEndWanted { emit(.passEndIdle) }
    }

    /// Publishes and acks what became durable, then writes each connection.
    private func answerWhatIsDurable() {
        if pendingAcks.hasDurable || publishedVersion != durableVersion {
            publish()
            sendDurableAcks()
            runSchedules()
        }
        writeConnections()
    }

    /// Shows the durable state, if it is newer than the one published, to the side effects and
    /// to the subscribers (`hub`).
    private func publish() {
        let version = durableVersion
        guard version != publishedVersion else { return }
        publishedState = durableState
        publishedVersion = version
        emit(.publish(version: version))
        hub.publish(publishedState, version: version) { subscriber, change in
            guard let connection = connections[subscriber.connectionID] else { return false }
            return enqueueUpdate(change, subscription: subscriber.subscription, version: version, to: connection)
        }
    }

    /// Writes every connection that has something queued, once. The list is swapped out, not
    /// copied: a copy kept while the list is emptied would make it allocate a new buffer.
    private func writeConnections() {
        guard !connectionsToFlush.isEmpty else { return }
        var flushing: [ClientConnection] = []
        swap(&flushing, &connectionsToFlush)
        for connection in flushing { flush(connection) }
        if connectionsToFlush.isEmpty {
            // The emptied list's buffer serves the next pass.
            flushing.removeAll(keepingCapacity: true)
            swap(&flushing, &connectionsToFlush)
        }
    }
}
