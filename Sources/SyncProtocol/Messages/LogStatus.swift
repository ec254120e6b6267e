/// Which log a daemon keeps its actions in and how it is doing, as `welcome` reports it (wire
/// name `log`).
///
/// ```json
/// {"kind":"postgres","location":"PostgreSQL db.internal/todo","head":120,"reachable":false,
///  "unreachableSince":1796118588000,"problem":"cannot connect: …"}
/// ```
public struct LogStatus: Codable, Equatable, Sendable {
    /// `sqlite` (the daemon's own file) or `postgres` (a log shared with other daemons).
    public var kind: String
    /// The file, or the database's host and name (never a password).
    public var location: String
    /// The newest version in the log as this daemon knows it.
    public var head: UInt64
    /// A shared log: whether the database answered the last time it was asked.
    public var reachable: Bool?
    /// A shared log that is unreachable: since when, milliseconds since the Unix epoch.
    public var unreachableSince: Int64?
    /// A shared log that is unreachable: why, in a few words.
    public var problem: String?
    /// A shared log: whether writes are refused because the log was rewritten, and why.
    public var refusingWrites: String?

    /// A status with every field given.
    public init(
        kind: String, location: String, head: UInt64, reachable: Bool? = nil, unreachableSince: Int64? = nil,
        problem: String? = nil,
        refusingWrites: String? = nil
    ) {
        self.kind = kind
        self.location = location
        self.head = head
        self.reachable = reachable
        self.unreachableSince = unreachableSince
        self.problem = problem
        self.refusingWrites = refusingWrites
    }
}
