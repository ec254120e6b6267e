import SyncProtocol

/// Where a graceful shutdown is.
package enum ShutdownProgress: Equatable, Sendable {
    /// Serving normally.
    case serving
    /// No new requests are read; waiting for the commits in flight and their acks.
    case finishingCommits
    /// Every client was sent `bye`; waiting for those writes, at most until the deadline.
    case sayingBye
    /// Every client is gone (or the daemon stops at once).
    case finished
}

/// Graceful shutdown (SIGTERM, SIGINT):
///
/// ```
/// serving ─shutdownRequested─▶ finishingCommits ─journal idle, acks sent─▶ sayingBye
///     (stop reading requests,      (commits and acks      (bye, then close each
///      stop the side effects)       go out as usual)        connection once written)
///                                               ─all clients gone or deadline─▶ finished
/// ```
extension Engine {
    /// Stops reading requests and the side effects, and lets the commits in flight finish;
    /// then says bye to everyone.
    func beginShutdown() {
        guard case .serving = shutdown else { return }
        shutdown = .finishingCommits
        stopSideEffects()
        runSchedules()
        for connection in Array(connections.values) {
            perform(connection.machine.endInput(.byServer), on: connection)
        }
        wantPassEnd()
    }

    /// At the end of a pass: once nothing waits for the journal, says bye to every client.
    func continueShutdownIfIdle() {
        guard case .finishingCommits = shutdown, pendingAcks.isEmpty, journalJob == .idle, journalReads.isEmpty
        else { return }
        shutdown = .sayingBye
        // The deadline first: saying bye can end the last connection, and with it the shutdown.
        emit(.startByeDeadline(milliseconds: configuration.byeDeadlineMilliseconds))
        for connection in Array(connections.values) {
            send(.bye(reason: "the daemon is shutting down"), to: connection)
            perform(connection.machine.drain(.shutdown), on: connection)
        }
        finishShutdownIfDone()
    }

    /// Stops at once, answering no one, because a commit may or may not be on disk: an ack
    /// or a `storage_unavailable` could each be a lie. The restart's recovery reads what the
    /// disk holds.
    func stopBecauseUncertain(_ reason: String) {
        guard shutdown != .finished else { return }
        log(
            .error,
            "a commit may or may not be on disk (\(reason)); stopping so that recovery decides what was committed")
        shutdown = .finished
        for connection in Array(connections.values) {
            perform(connection.machine.close(.uncertainCommit), on: connection)
        }
        // Their clients are gone: the calls end unanswered, and their inboxes close.
        _ = sideEffectCalls.stop()
        emit(.stopSideEffects)
        emit(.stopAtOnce(reason: reason))
    }

    /// Once every client is gone, the shutdown is finished.
    func finishShutdownIfDone() {
        guard case .sayingBye = shutdown, connections.isEmpty else { return }
        shutdown = .finished
        emit(.shutdownFinished)
    }
}
