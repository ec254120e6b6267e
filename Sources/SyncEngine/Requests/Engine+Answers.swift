import SyncProtocol

/// Answering a request whose answer was deferred: the one way out of the `RequestBook`.
extension Engine {
    /// Queues the answer to the request `token` stands for, made from its request id, and
    /// closes the connection if that was the last answer its client waited for.
    func answer(_ token: RequestBook.Token, with message: (Int64) -> ServerMessage) {
        guard let awaited = requests.take(token), let connection = connections[awaited.connectionID] else { return }
        send(message(awaited.requestID), to: connection)
        closeIfFinished(connection)
    }
}
