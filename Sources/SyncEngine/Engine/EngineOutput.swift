import SyncJournal
import SyncProtocol

/// What the engine asks its shell to do, in the order it must be done. The engine performs no
/// I/O: every socket operation, journal job, thread-pool task, side-effect task, timer and log
/// line is one of these. Not generic: what a case needs of the app's types (a state, a side
/// effect) the shell reads from the engine, so that emitting and performing an output make no
/// runtime lookup of type metadata.
package enum EngineOutput {
    /// Start reading the client's socket.
    case startReading(connection: Int)
    /// Stop reading the client's socket (backpressure, the end of its input).
    case stopReading(connection: Int)
    /// Write these bytes, then report `EngineInput.wrote` (or `failed`). The buffer is the
    /// shell's from now on: it frees it once the write completed.
    case write(connection: Int, UnsafeMutableRawBufferPointer)
    /// Close the client's socket; the engine has already let go of the connection.
    case close(connection: Int)
    /// Report the end of this loop pass (`EngineInput.passEnded`).
    case wantPassEnd
    /// Nothing more to do at the end of loop passes until the next `wantPassEnd`.
    case passEndIdle
    /// Commit `entries` (possibly none) as one transaction, with whatever the journal has of its
    /// own to do, then report `EngineInput.journalJobStarted`. `ledger` and the engine's
    /// `committingState` are the applied ones after the last entry.
    case startJournalJob(entries: [JournalEntry], ledger: DispatchLedger)
    /// Read up to `limit` durable entries after version `after` (`EngineInput.entriesRead`).
    case readEntries(read: Int, after: UInt64, limit: Int)
    /// Read what rebuilding version `version` starts from (`EngineInput.pastBaseRead`).
    case readPastBase(read: Int, version: UInt64, replayLimit: Int)
    /// Run `work` on the thread pool (`EngineInput.poolJobEnded`): the replay of a rebuild of a
    /// past version, the encoding of a history answer; work too long for the loop thread.
    case runOnPool(job: Int, work: @Sendable () -> Result<[UInt8], PoolJobFailure>)
    /// Read what other daemons appended to the shared log with the next journal job.
    case requestCatchUp
    /// A shared log's foreign entries could not be applied: the durable version goes back.
    case takeBackDurableVersion(UInt64)
    /// Version `version` is visible: show the engine's `publishedState` and `publishedVersion`
    /// to the side effects (newer ones, when a later output publishes again).
    case publish(version: UInt64)
    /// Start the side effect a client dispatched, as call `call` (`EngineInput.sideEffectFinished`);
    /// the engine hands it over once, with `takeSideEffect(forCall:)`.
    case startSideEffect(call: Int)
    /// Cancel these calls: their clients are gone, or the daemon stops. They still end.
    case cancelSideEffects([Int])
    /// Tell the side effect waiting on `reply` what became of the action it dispatched.
    case answerSideEffectDispatch(reply: UInt64, Result<UInt64, ProtocolError>)
    /// Stop the side effects: the daemon is shutting down; queued dispatches fail.
    case stopSideEffects
    /// Write a log line.
    case log(LogLevel, String)
    /// Report `EngineInput.wakeUp` after this many milliseconds (replacing the wake-up asked for
    /// before); `nil`: no wake-up.
    case wakeIn(milliseconds: Int64?)
    /// Report `EngineInput.byeDeadlinePassed` after this many milliseconds.
    case startByeDeadline(milliseconds: UInt64)
    /// Every client is gone after a graceful shutdown: close the engine's handles.
    case shutdownFinished
    /// A commit may or may not be on disk: stop at once, answering no one.
    case stopAtOnce(reason: String)
}

/// How much a log line matters, most important first (the daemon's `Logger.Level`).
package enum LogLevel: Int, Sendable {
    /// Something failed.
    case error = 3
    /// Something is wrong but handled.
    case warning = 4
    /// The daemon's life.
    case info = 6
    /// Every connection and disconnection.
    case debug = 7
}
