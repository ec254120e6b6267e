/// The end of a loop pass, where what was applied becomes durable, visible and answered. Each
/// step is in a file named after it:
///
/// ```
/// settle commits      Server+Commits.swift   the outcomes of commits that ended
/// publish             Server+Publish.swift   updates for what became durable (ViewHub)
/// ack                 Server+Acks.swift      acks for what became durable, after its updates
/// write               Connection.swift       one write per connection, with all of the above
/// commit              JournalWriter.swift    everything recorded, as one transaction
/// ```
///
/// A small commit runs on the loop thread (see `JournalWriter`): what it made durable is
/// settled, published and acked in the same pass, and what was ready before it was written
/// first, so that it does not wait for the fsync.
extension Server {
    /// Runs once per loop pass while started.
    func passDidEnd() {
        answerWhatIsDurable()
        if startCommit() == .ranInline {
            settle(writer.takeFinished())
            answerWhatIsDurable()
        }
        continueShutdownIfIdle()
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

    /// Commits everything recorded (and runs the queued journal reads), unless a commit is
    /// running.
    private func startCommit() -> JournalWriter<App.State>.Start {
        writer.startNextJob(appliedState: store.state, appliedLedger: ledger)
    }

    /// Writes every connection that has something queued, once.
    private func writeConnections() {
        let connections = connectionsToFlush
        connectionsToFlush.removeAll(keepingCapacity: true)
        for connection in connections { connection.flush() }
    }
}
