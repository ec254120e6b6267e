import SyncProtocol

extension ProtocolError {
    /// The error of a client's side effect cancelled because the daemon stops.
    package static let sideEffectCancelledByShutdown = ProtocolError(
        .cancelled,
        "The side effect was cancelled: the daemon is shutting down. Actions it dispatched before were accepted and commit as usual."
    )

    /// The error of a client's side effect cancelled because the client finished sending.
    package static let sideEffectCancelledByClient = ProtocolError(
        .cancelled,
        "The side effect was cancelled: its client finished sending, and a client that goes cancels its side effects. Actions it dispatched before were accepted and commit as usual."
    )
}
