import SyncJournal
import SyncProtocol

/// Why a snapshot could not be encoded.
struct SnapshotFailure: Error, CustomStringConvertible {
    let description: String
}

/// What encodes the app's state for a snapshot, on any thread: the writer is not generic over
/// the state (see `JournalWriter`).
struct StateEncoding: Sendable {
    /// The state's JSON, as `WireJSON.encode` writes it.
    let encode: @Sendable () throws -> [UInt8]

    /// What encodes `state`.
    init<State: Encodable & Sendable>(_ state: State) {
        encode = { try WireJSON.encode(state) }
    }
}

/// A read of the journal queued by the shell.
struct JournalRead {
    /// Reads, on the job's thread, and returns what delivers the result on the loop thread.
    let perform: (any Journal) -> () -> Void
    /// Delivers a failure when the job could not run.
    let fail: (JournalError) -> Void
}

/// What the pool thread found.
struct JournalJobResults {
    var commit: Result<Void, JournalError> = .success(())
    /// Why the job's snapshot was not saved, by a journal that saves it at best beside the
    /// entries (`Journal.lastSnapshotFailure`).
    var snapshotFailure: JournalError?
    /// What other daemons appended, read after an overtaken commit or for a catch-up.
    var foreign: Result<[JournalEntry], JournalError>?
    /// What delivers each read's result, in the order of the job's reads.
    var reads: [() -> Void] = []
}
