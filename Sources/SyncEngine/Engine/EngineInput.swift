import SyncJournal
import SyncProtocol

/// What happens to the engine: everything the shell around it hears from sockets, the journal,
/// side effects, timers and signals, as values. Connections are named by the shell's ids. Not
/// generic, so that handing one over makes no runtime lookup of type metadata: the one input
/// that carries an app's type, an action a side effect dispatched, has an entry point of its
/// own (`Engine.handle(_:dispatchedBySideEffect:call:)`).
package enum EngineInput {
    /// A client connected; `peer` is what the kernel said of it, `allowed` whether the peer
    /// policy lets it in.
    case opened(connection: Int, peer: Peer?, allowed: Bool)
    /// Bytes arrived from a client. Valid only during the call that hands them over.
    case received(connection: Int, bytes: UnsafeRawBufferPointer)
    /// The client shut down its sending side (end of stream); it may still read.
    case inputEnded(connection: Int)
    /// Reading or writing the socket failed, so the connection is gone.
    case failed(connection: Int, CloseReason)
    /// The write the engine asked for (`EngineOutput.write`) completed.
    case wrote(connection: Int)
    /// The end of a loop pass, asked for with `EngineOutput.wantPassEnd`.
    case passEnded
    /// How the journal job asked for by `EngineOutput.startJournalJob` started.
    case journalJobStarted(JournalJobStart)
    /// A journal job that ran off the loop ended with these outcomes, in order: that job's
    /// alone (see `CommitOutcome.durable`).
    case journalJobFinished([CommitOutcome])
    /// The journal has work of its own (a snapshot to save): the next pass end starts a job.
    case journalHasWork
    /// The entries a history read (`EngineOutput.readEntries`) found.
    case entriesRead(read: Int, Result<[JournalEntry], JournalError>)
    /// What a past state's base read (`EngineOutput.readPastBase`) found.
    case pastBaseRead(read: Int, Result<PastStateBase, JournalError>)
    /// Work on the thread pool (`EngineOutput.runOnPool`) ended; `nil` when the thread pool
    /// refused it.
    case poolJobEnded(job: Int, Result<[UInt8], PoolJobFailure>?)
    /// A client's side effect (`EngineOutput.startSideEffect`) ended.
    case sideEffectFinished(call: Int, Result<[UInt8], ProtocolError>)
    /// What the listener of a shared log saw.
    case sharedLogObserved(SharedLogObservation)
    /// What a verification pass of a shared log found.
    case sharedLogVerified(SharedLogAudit)
    /// SIGINT or SIGTERM: stop accepting requests, finish the commits, say bye.
    case shutdownRequested
    /// The clients did not read their `bye` in time (`EngineOutput.startByeDeadline`).
    case byeDeadlinePassed
    /// The wake-up asked for with `EngineOutput.wakeIn` came.
    case wakeUp
}

/// Who is on the other end of a connection, as `SO_PEERCRED` reports it.
package struct Peer: Equatable, Sendable {
    package var uid: UInt32
    package var gid: UInt32
    package var pid: Int32

    /// The credentials of a peer.
    package init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }
}

/// How a journal job the engine asked for started.
package enum JournalJobStart {
    /// There was nothing to do.
    case none
    /// The job runs off the loop; `EngineInput.journalJobFinished` follows.
    case queued
    /// The job ran at once, with these outcomes.
    case ranInline([CommitOutcome])
}
