/// One journaled action as the `entries` reply carries it.
public struct HistoryEntry: Codable, Equatable, Sendable {
    /// The state version the action produced.
    public var version: UInt64
    /// The action's wire name.
    public var name: String
    /// The action's payload with the values fixed at acceptance.
    public var payload: JSONValue
    /// Acceptance time, milliseconds since the Unix epoch.
    public var acceptedAt: Int64
    /// The user id of the client that sent it; absent for the daemon's own side effects.
    public var uid: UInt32?
    /// The process id of the client that sent it; absent for the daemon's own side effects.
    public var pid: Int32?
    /// The client id of the connection that sent it, if its hello gave one (wire name `clientId`).
    public var clientID: String?
    /// The sequence the client numbered it with, if it did.
    public var sequence: UInt64?
    /// The host whose daemon accepted it, when several daemons share one log.
    public var host: String?

    private enum CodingKeys: String, CodingKey {
        case version, name, payload, acceptedAt, uid, pid, sequence, host
        case clientID = "clientId"
    }

    /// An entry with every field given.
    public init(
        version: UInt64, name: String, payload: JSONValue, acceptedAt: Int64, uid: UInt32?, pid: Int32?,
        clientID: String? = nil, sequence: UInt64? = nil, host: String? = nil
    ) {
        self.version = version
        self.name = name
        self.payload = payload
        self.acceptedAt = acceptedAt
        self.uid = uid
        self.pid = pid
        self.clientID = clientID
        self.sequence = sequence
        self.host = host
    }
}
