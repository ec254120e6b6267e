import SyncJournal
import SyncProtocol
import SyncStore

/// A shared log: what happens when other daemons appended first.
///
/// ```
/// durable ─ foreign entries (other hosts) ─▶ new durable state ─ re-run unsaved actions ─▶ record again
///                                                             └ rejected now: `rejected` with the reason
/// ```
/// Clients never saw the unsaved actions' results (durable before visible), so moving them
/// after the foreign entries takes back nothing anyone saw. Each is applied as the journal
/// keeps it: one kept as received is accepted again with its own context (the same ids and
/// times), one whose acceptance reads the state (`undo`, with the change it reverts) is kept as
/// accepted and applied as it was, so it is rejected rather than re-targeted.
extension Engine {
    /// Applies `foreign` (durable) to the durable state, then re-runs `unsaved` on top and
    /// records them for the next commit; the dispatches waiting for them follow their new
    /// versions, or are answered `rejected` when their action no longer applies.
    func rebase(onto foreign: [JournalEntry], unsaved: [JournalEntry]) {
        let baseVersion = foreign[0].version - 1
        var rebased = Store(state: durableState, version: baseVersion)
        ledger.forget(after: baseVersion)
        for entry in foreign {
            do {
                try actionTypes.reapply(entry, to: &rebased)
            } catch {
                // Every daemon applies the same log; one that cannot has diverged from it.
                let reason = "the shared log's \(error.description(at: entry.version)) here"
                refuseWrites(because: reason)
                // Serve what was served before: the state, the ledger and the durable version
                // of the base, never the base's state under a newer version.
                store = Store(state: durableState, version: baseVersion)
                ledger.forget(after: baseVersion)
                pendingBatches.removeAll()
                durableVersion = baseVersion
                emit(.takeBackDurableVersion(baseVersion))
                failAwaiting(ProtocolError(.storageUnavailable, "The action was not applied: \(reason)."))
                return
            }
            if let key = entry.ledgerKey { ledger.record(key, version: entry.version, durableThrough: entry.version) }
        }
        durableState = rebased.state
        durableVersion = rebased.version
        var outcomes: [UInt64: Result<UInt64, ProtocolError>] = [:]
        // A scheduled action is not re-run: its schedule is asked again on the new state (the
        // other hosts' entries may hold the very action, dispatched by a leader before this
        // one, or this one's own, saved after all by a commit that seemed lost).
        let awaiting = pendingAcks.takeAwaiting()
        var scheduled: [UInt64: Int] = [:]
        for (requester, version) in awaiting {
            if case .schedule(let index) = requester { scheduled[version] = index }
        }
        // A batch request's entries are re-run together: all of them apply, or none.
        let batches = Dictionary(pendingBatches.map { ($0.lowerBound, $0) }, uniquingKeysWith: { first, _ in first })
        pendingBatches = []
        var index = 0
        while index < unsaved.count {
            let batch = batches[unsaved[index].version]
            let count = batch.map { range in unsaved[index...].prefix { range.contains($0.version) }.count } ?? 1
            let group = Array(unsaved[index..<index + count])
            index += count
            if let schedule = scheduled[group[group.count - 1].version] {
                scheduleBook.settled(schedule)
                outcomes[group[group.count - 1].version] = .success(0)
                continue
            }
            if let key = group[group.count - 1].ledgerKey, case .applied(let version) = ledger.verdict(for: key) {
                // Already in the log: the commit that seemed lost had been saved after all.
                outcomes[group[group.count - 1].version] = .success(version)
                continue
            }
            var trial = rebased
            var moved: [JournalEntry] = []
            do {
                for entry in group {
                    try actionTypes.reapply(entry, to: &trial)
                    var entry = entry
                    entry.version = trial.version
                    moved.append(entry)
                }
            } catch {
                let reason = Self.rejection(error)
                let refusal = batch == nil ? reason : "the batch no longer applies: \(reason)"
                for entry in group { outcomes[entry.version] = .failure(ProtocolError(.rejected, refusal)) }
                continue
            }
            rebased = trial
            uncommitted += moved
            if batch != nil { pendingBatches.append(moved[0].version...moved[moved.count - 1].version) }
            for (entry, movedEntry) in zip(group, moved) {
                if let key = entry.ledgerKey {
                    ledger.record(key, version: movedEntry.version, durableThrough: durableVersion)
                }
                outcomes[entry.version] = .success(movedEntry.version)
            }
        }
        store = rebased
        for (requester, version) in awaiting {
            if case .schedule = requester { continue }
            switch outcomes[version] ?? .success(version) {
            case .success(let moved):
                pendingAcks.add(requester, version: moved, durableVersion: durableVersion)
            case .failure(let error):
                fail(requester, error)
            }
        }
        log(
            .debug,
            "rebased on versions \(foreign[0].version)-\(durableVersion) from other hosts: \(outcomes.values.filter { (try? $0.get()) == nil }.count) of \(unsaved.count) pending actions rejected"
        )
    }

    /// Stops accepting actions for good (until a restart): the shared log no longer matches
    /// what this daemon applied, and writing on would diverge from it. Reads go on.
    func refuseWrites(because reason: String) {
        guard writeRefusal == nil else { return }
        writeRefusal = reason
        let advice =
            configuration.isShared
            ? "once the log is sorted out, delete the refusal recorded in the database (docs/SCALE_OUT.md, \"A changed log\") and restart the daemons"
            : "restart this daemon once the log is sorted out"
        log(.error, "refusing every change from now on: \(reason); \(advice)")
    }

    /// The reason a re-run action gives, as a dispatch's rejection says it.
    private static func rejection(_ failure: ReplayFailure) -> String {
        if case .rejected(_, let reason) = failure { return reason }
        return failure.description
    }
}

extension JournalEntry {
    /// The entry's client id and sequence, if it was a numbered dispatch.
    var ledgerKey: DispatchLedger.Key? {
        guard let clientID, let clientSequence else { return nil }
        return DispatchLedger.Key(clientID: clientID, sequence: clientSequence)
    }
}
