import SyncJournal
import SyncProtocol

/// A shared log: what its listener and its verifier report reaches the engine here.
extension Engine {
    /// Which log this daemon uses and how it is doing, for `welcome`.
    var logStatus: LogStatus {
        // Before the listener's first news, the database answered the start-up's reads.
        guard let sharedLog = sharedLog ?? (configuration.isShared ? .unknown : nil) else {
            return LogStatus(
                kind: "sqlite", location: configuration.journalLocation, head: durableVersion,
                refusingWrites: writeRefusal)
        }
        return LogStatus(
            kind: "postgres", location: configuration.journalLocation, head: max(sharedLog.head ?? 0, durableVersion),
            reachable: sharedLog.isReachable,
            unreachableSince: sharedLog.unreachableSince, problem: sharedLog.problem, refusingWrites: writeRefusal)
    }

    /// Refuses every change once a verification pass found the log rewritten.
    func sharedLogWasVerified(_ audit: SharedLogAudit) {
        switch audit {
        case .rewritten(let reason):
            refuseWrites(because: "the shared log was found rewritten (\(reason))")
        case .intact(let head, let entries, let milliseconds):
            log(
                .debug, "verified the shared log: \(entries) entries up to version \(head) in \(milliseconds) ms")
        case .unavailable: break
        }
    }

    /// Notes what the listener saw, and catches up when other daemons appended.
    func sharedLogDidChange(_ observation: SharedLogObservation) {
        let wasReachable = sharedLog?.isReachable ?? true
        let wasLeader = sharedLog?.isLeader ?? false
        sharedLog = observation
        if wasLeader != observation.isLeader { runSchedules() }
        // The database answers the listener again: a read tells whether it works for the
        // journal too (the outage's end is logged once a commit or a read works).
        if !wasReachable && observation.isReachable {
            emit(.requestCatchUp)
            wantPassEnd()
        }
        if let refusal = observation.refusal {
            refuseWrites(because: "the shared log was found rewritten (\(refusal))")
        }
        // A head at or below the applied version is this daemon's own commit in flight, or
        // other daemons' appends that the pending commit will be overtaken by and read anyway
        // (after a rollback the applied version is the durable one again).
        if writeRefusal == nil, let head = observation.head, head > store.version {
            emit(.requestCatchUp)
            wantPassEnd()
        }
    }
}
