import CUV
import SyncJournal

/// The end of a loop pass, where what was applied becomes durable, visible and answered. Each
/// step is in a file named after it:
///
/// ```
/// publish   ViewHub.swift          an update for each subscriber whose model changed
/// ack       Server+Acks.swift      the acks of what became durable, after its updates
/// write     Connection+Write.swift one write per connection, with all of the above
/// commit    JournalWriter.swift    what was applied since the last commit, as one transaction
/// settle    Server+Commits.swift   its outcome: at once when it ran on the loop thread (then
///                                  publish, ack and write again); from the thread pool when
///                                  the writer's delegate hears that it ended (then the next pass)
/// ```
///
/// A small commit runs on the loop thread (see `JournalWriter`): what it made durable is
/// answered in the same pass, and what was ready before it was written first, so that it does
/// not wait for the fsync.
extension Server {
    /// The hook that runs `passDidEnd()` at the end of every loop pass while started.
    func makePassEndHook() throws(DaemonError) -> LoopHandle<uv_prepare_t> {
        try .passEnd(loop: loop) { [unowned self] in passDidEnd() }
    }

    /// A connection queued output: it is written at the end of this pass.
    func connectionNeedsFlush(_ connection: Connection) {
        connectionsToFlush.append(connection)
        passEnd.start()
    }

    /// Runs once per loop pass while started.
    func passDidEnd() {
        answerWhatIsDurable()
        if startCommit() == .ranInline {
            settle(writer.takeFinished())
            answerWhatIsDurable()
        }
        if case .finishingCommits = shutdown { continueShutdownIfIdle() }
        writeConnections()
        if connectionsToFlush.isEmpty { passEnd.stop() }
    }

    /// Publishes and acks what became durable, then writes each connection.
    private func answerWhatIsDurable() {
        if pendingAcks.hasDurable || publishedVersion != writer.durableVersion {
            publish()
            sendDurableAcks()
        }
        writeConnections()
    }

    /// Shows the durable state, if it is newer than the one published, to the side effects
    /// (`mirror`) and to the subscribers (`hub`).
    private func publish() {
        let version = writer.durableVersion
        guard version != publishedVersion else { return }
        publishedState = durableState
        publishedVersion = version
        mirror.publish(state: publishedState, version: version)
        hub.publish(publishedState, version: version) { subscriber, change in
            sessions[subscriber.connectionID]?.connection.enqueueUpdate(
                change, subscription: subscriber.subscription, version: version) ?? false
        }
    }

    /// Commits everything applied since the last commit (and runs the queued journal reads),
    /// unless a commit is running.
    private func startCommit() -> JournalWriter<App.State>.Start {
        guard !writer.isBusy else { return .none }
        var batch: [JournalEntry] = []
        swap(&batch, &uncommitted)
        return writer.startNextJob(entries: batch, appliedState: store.state, appliedLedger: ledger)
    }

    /// Writes every connection that has something queued, once.
    private func writeConnections() {
        let connections = connectionsToFlush
        connectionsToFlush.removeAll(keepingCapacity: true)
        for connection in connections { connection.flush() }
    }
}
