import SyncJournal
import SyncProtocol
import SyncStore

/// Settling commits: what the journal's finished jobs mean for the store, the ledger and the
/// dispatches waiting for them.
///
/// ```
/// durable     ─▶ the durable state moves on; its dispatches are acked at the end of the pass
/// failed      ─▶ store and ledger back to the durable state; every pending dispatch fails
/// overtaken   ─▶ rebase on what other daemons appended (Engine+Rebase.swift)
/// uncertain   ─▶ a file of this daemon only: stop; a shared log: roll back, catch up later
/// rewritten   ─▶ roll back and refuse every change from now on
/// ```
extension Engine {
    /// A job that ran off the loop ended: settled at once, before another action is applied on
    /// top of a commit that failed or was overtaken; answered at the end of this pass.
    func journalJobDidFinish(_ outcomes: [CommitOutcome]) {
        journalJob = .idle
        settle(outcomes)
        wantPassEnd()
    }

    /// Settles each commit's outcome, in order.
    func settle(_ outcomes: [CommitOutcome]) {
        for outcome in outcomes { settle(outcome) }
    }

    /// Durable actions get their acks at the end of this pass; after a failure the store and
    /// the ledger go back to the last durable state and every pending dispatch (and every
    /// duplicate waiting for one) fails.
    private func settle(_ outcome: CommitOutcome) {
        switch outcome {
        case .durable(let version):
            // One job runs at a time, and its outcomes are settled before the next starts: a
            // durable version is the end of the batch asked for last, reported once.
            precondition(version == committingVersion, "a durable version that is not the last job's batch's")
            committingVersion = nil
            durableState = committingState
            durableVersion = version
            pendingAcks.markDurable(through: version)
            pendingBatches.removeAll { $0.upperBound <= version }
        case .failed(let durableVersion, let reason):
            rollBack(
                to: durableVersion,
                ProtocolError(.storageUnavailable, "The action could not be saved, so it was not applied (\(reason))."))
        case .overtaken(let foreign, let unsaved):
            // What was applied while the overtaken commit ran goes after it, as it was applied.
            var pending: [JournalEntry] = []
            swap(&pending, &uncommitted)
            rebase(onto: foreign, unsaved: unsaved + pending)
        case .uncertain(let durableVersion, let reason):
            guard configuration.isShared else {
                // The commit may be on disk or not, and the clients cannot be told either way
                // truthfully: stop, and let the restart's recovery read what the disk holds.
                stopBecauseUncertain(reason)
                return
            }
            rollBack(
                to: durableVersion,
                ProtocolError(
                    .storageUnavailable,
                    "The database could not be reached to learn whether the action was saved: it may or may not have been applied (\(reason)). A numbered dispatch sent again is applied at most once."
                ))
            emit(.requestCatchUp)
            wantPassEnd()
        case .rewritten(let durableVersion, let reason):
            refuseWrites(because: reason)
            rollBack(to: durableVersion, ProtocolError(.storageUnavailable, "The action was not applied: \(reason)."))
        }
    }

    /// Takes the store and the ledger back to the durable state at `durableVersion` and fails
    /// every pending dispatch (and every duplicate waiting for one) with `error`.
    private func rollBack(to durableVersion: UInt64, _ error: ProtocolError) {
        uncommitted.removeAll()
        pendingBatches.removeAll()
        store = Store(state: durableState, version: durableVersion)
        ledger.forget(after: durableVersion)
        failAwaiting(error)
    }
}
