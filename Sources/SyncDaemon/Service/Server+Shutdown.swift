import CUV
import SyncProtocol

/// Where a graceful shutdown is.
enum ShutdownProgress {
    /// Serving normally.
    case serving
    /// No new requests are read; waiting for the commits in flight and their acks.
    case finishingCommits
    /// Every client was sent `bye`; waiting for those writes, at most until the deadline.
    case sayingBye
    /// Every client is gone and the server's handles are closed.
    case finished
}

/// Graceful shutdown (SIGTERM, SIGINT):
///
/// ```
/// serving ─beginShutdown()─▶ finishingCommits ─writer idle, acks sent─▶ sayingBye
///     (stop reading requests;      (commits and acks      (bye, then close each
///      commit what was applied)     go out as usual)        connection once written)
///                                               ─all clients gone or deadline─▶ finished
/// ```
extension Server {
    /// How long clients get to read their `bye` before they are cut off.
    static var byeDeadlineMilliseconds: UInt64 { 2000 }

    /// Stops reading requests and lets the commits in flight finish; then says bye to everyone.
    func beginShutdown() {
        guard case .serving = shutdown else { return }
        shutdown = .finishingCommits
        for session in sessions.values { session.connection.endReading() }
        passEnd.start()
    }

    /// At the end of a pass: once nothing waits for the journal, says bye to every client.
    func continueShutdownIfIdle() {
        guard case .finishingCommits = shutdown, pendingAcks.isEmpty, !writer.isBusy else {
            return
        }
        shutdown = .sayingBye
        // The deadline first: saying bye can end the last connection, and with it the shutdown.
        do {
            shutdownDeadline = try .timer(loop: loop, after: Self.byeDeadlineMilliseconds) { [unowned self] in
                for session in sessions.values { session.connection.close(reason: .byeNotRead) }
            }
        } catch {
            logger.log(.warning, "no shutdown deadline (\(error)); closing every client now")
            for session in sessions.values { session.connection.close(reason: .shutdown) }
        }
        for session in sessions.values {
            send(.bye(reason: "the daemon is shutting down"), to: session)
            session.connection.closeAfterFlushing(reason: .shutdown)
        }
        finishShutdownIfDone()
    }

    /// Stops at once, answering no one, because a commit may or may not be on disk: an ack
    /// or a `storage_unavailable` could each be a lie. The restart's recovery reads what the
    /// disk holds.
    func stopBecauseUncertain(_ reason: String) {
        guard fatalStop == nil else { return }
        fatalStop = .uncertainCommit(reason: reason)
        logger.log(
            .error,
            "a commit may or may not be on disk (\(reason)); stopping so that recovery decides what was committed")
        shutdown = .finished
        for session in sessions.values { session.connection.close(reason: .uncertainCommit) }
        shutdownDeadline?.close()
        passEnd.close()
        onFatalError()
    }

    /// Once every client is gone, closes the server's own handles so the loop can end.
    func finishShutdownIfDone() {
        guard case .sayingBye = shutdown, sessions.isEmpty else { return }
        shutdown = .finished
        shutdownDeadline?.close()
        passEnd.close()
    }
}
