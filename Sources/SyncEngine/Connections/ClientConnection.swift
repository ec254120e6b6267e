import SyncProtocol

/// What the engine knows about one connected client: where the connection is in its life, the
/// bytes it sent not yet cut into frames, the bytes waiting to be written to it, and what it
/// said in `hello`. The shell owns only the socket. Not `Sendable`: the engine's alone.
final class ClientConnection {
    /// The shell's id for the connection.
    let id: Int
    /// Who is on the other end, if the kernel said.
    let peer: Peer?
    /// Where the connection is in its life; changed only through its transitions.
    @exclusivity(unchecked) var machine: ConnectionStateMachine
    /// Cuts the bytes read into frames.
    @exclusivity(unchecked) var decoder: FrameDecoder
    /// What waits to be written.
    @exclusivity(unchecked) var outbound: OutboundQueue
    /// Bytes of the write in flight, 0 when none is.
    @exclusivity(unchecked) var inFlightByteCount = 0
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

    /// A just-accepted connection, not yet greeted, with `configuration`'s limits.
    init(id: Int, peer: Peer?, configuration: EngineConfiguration) {
        self.id = id
        self.peer = peer
        machine = ConnectionStateMachine(
            softQueueLimit: configuration.softQueueLimit, hardQueueLimit: configuration.hardQueueLimit)
        decoder = FrameDecoder(maximumLength: configuration.maximumFrameLength)
        outbound = OutboundQueue(coalescingThreshold: configuration.softQueueLimit)
    }

    /// Whether a valid `hello` has been received and the connection is still serving.
    var isGreeted: Bool { machine.isGreeted }

    /// Records the accepted `hello` of `client` (`unnamed` if empty), with `clientID` if it gave
    /// one; the connection moves from greeting to serving.
    func greet(client: String, clientID: String?) {
        clientName = client.isEmpty ? "unnamed" : client
        self.clientID = clientID
        machine.greet()
    }

    /// Bytes queued or being written.
    var queuedByteCount: Int { outbound.pendingByteCount + inFlightByteCount }

    /// The name to use in log lines.
    var logName: String { "client \(id)" + (clientName.map { " (\($0))" } ?? "") }
}
