import SyncProtocol

/// Exactly-once dispatch: a client that gave a client id in `hello` numbers its dispatches, and
/// each (client id, sequence) applies at most once, however often it is resent and whichever
/// connection resends it.
///
/// ```
/// dispatch {sequence} ─▶ ledger verdict ─new──────▶ apply, record in ledger and journal
///                                       ─applied──▶ the original's ack (now, or once it is durable)
///                                       ─stale────▶ stale_sequence
/// ```
extension Engine {
    /// Judges a numbered dispatch. Returns the key to apply and record it under when it is new;
    /// `nil` when it was answered here: a duplicate (the original's ack, or its failure), a
    /// stale sequence, or a connection without a client id.
    func admitNumberedDispatch(sequence: UInt64, from connection: ClientConnection, requestID: Int64) -> DispatchLedger
        .Key?
    {
        guard let clientID = connection.clientID else {
            send(
                .error(
                    ProtocolError(
                        .invalidMessage,
                        "A dispatch with a \"sequence\" needs a connection whose hello gave a \"clientId\".",
                        requestID: requestID)), to: connection)
            return nil
        }
        let key = DispatchLedger.Key(clientID: clientID, sequence: sequence)
        switch ledger.verdict(for: key) {
        case .new:
            return key
        case .applied(let version):
            answerDuplicate(.client(requests.enter(requestID, of: connection.id)), of: version)
            return nil
        case .stale(let highest):
            send(
                .error(
                    ProtocolError(
                        .staleSequence,
                        "Sequence \(sequence) of client id \"\(clientID)\" is at or below its highest applied one (\(highest)) and not among those remembered as applied: it may or may not have been applied earlier, and it was not applied now.",
                        requestID: requestID)), to: connection)
            return nil
        }
    }

    /// Answers a duplicate with the ack of the original, applied as `version`: at the end of
    /// this pass if that is durable, else with the original's own outcome (its ack, or the
    /// same `storage_unavailable` if its commit fails).
    private func answerDuplicate(_ requester: DispatchRequester, of version: UInt64) {
        pendingAcks.add(requester, version: version, durableVersion: durableVersion)
        wantPassEnd()
    }
}
