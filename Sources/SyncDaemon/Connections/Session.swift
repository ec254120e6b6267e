/// What the server knows about one connected client. Loop-confined: not `Sendable`.
final class Session {
    /// The client's socket, and where it is in its life (greeting, serving, draining, closed).
    let connection: Connection
    /// The `client` string from `hello`, once greeted.
    private(set) var clientName: String?
    /// The client id from `hello`, if it gave one: its numbered dispatches apply at most once.
    private(set) var clientID: String?
    /// Whether the client asked for `patch` updates in `hello`.
    var takesPatches = false
    /// This connection's subscriptions by id, and the pair each one follows.
    var subscriptions: [Int64: ViewKey] = [:]
    /// The id the next subscription gets (ids are per connection and never reused on it).
    var nextSubscriptionID: Int64 = 1
    /// Requests still waiting for the journal (dispatches not yet durable, history reads).
    var awaitedReplies = 0

    /// A session for a just-accepted connection, not yet greeted.
    init(connection: Connection) {
        self.connection = connection
    }

    /// Whether a valid `hello` has been received (the connection's state says so).
    var isGreeted: Bool { connection.isGreeted }

    /// Records the accepted `hello` of `client` (`unnamed` if empty), with `clientID` if it gave
    /// one; the connection moves from greeting to serving.
    func greet(client: String, clientID: String?) {
        clientName = client.isEmpty ? "unnamed" : client
        self.clientID = clientID
        connection.greet()
    }

    /// The name to use in log lines.
    var logName: String { "client \(connection.id)" + (clientName.map { " (\($0))" } ?? "") }
}
