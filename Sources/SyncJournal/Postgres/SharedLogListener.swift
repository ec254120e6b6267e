import Glibc

/// What a daemon on a shared log knows of the database from its listening connection.
public struct SharedLogObservation: Equatable, Sendable {
    /// The head of the log, as last read (`nil` before the first read).
    public var head: UInt64?
    /// Whether the database answered the last time it was asked.
    public var isReachable: Bool
    /// Since when it has not answered, in milliseconds since the Unix epoch.
    public var unreachableSince: Int64?
    /// Why it did not answer, without any password.
    public var problem: String?
    /// Whether this daemon holds the leader lock, so runs the side effects that act for every host.
    public var isLeader: Bool
    /// Why every host refuses changes, once one of them found the log rewritten and recorded it.
    public var refusal: String?

    /// What is known before the first poll.
    public static let unknown = SharedLogObservation(
        head: nil, isReachable: true, unreachableSince: nil, problem: nil, isLeader: false, refusal: nil)
}

/// The listening side of a shared log: one connection per daemon that `LISTEN`s for the
/// appends of other daemons (a doorbell: notifications are lost while it is disconnected),
/// reads the head about once a second (a lost notification costs at most that, and it doubles
/// as a liveness check of the database), and, if asked to, holds the advisory lock that
/// elects one daemon to run the side effects acting for every host. Reconnects by itself, with
/// backoff. Used from its own thread; not `Sendable`.
public final class SharedLogListener {
    private let conninfo: String
    private let schema: SharedLogSchema
    private let applicationName: String
    private let wantsLeadership: Bool
    private var connection: PostgresConnection?
    /// The server session of the last listening connection, ended when a new one is made.
    private var previousSession: Int32?
    private var observation = SharedLogObservation.unknown
    private var nextHeadRead: Int64 = 0
    private var nextConnectAttempt: Int64 = 0
    private var backoffMilliseconds = 0

    /// How often the head is read even without a notification.
    public var headIntervalMilliseconds: Int64 = 1_000

    /// A listener on the log of `schema` in the database of `conninfo`; it competes for the
    /// leader lock if `wantsLeadership`.
    public init(conninfo: String, schema: SharedLogSchema, applicationName: String, wantsLeadership: Bool) {
        self.conninfo = conninfo
        self.schema = schema
        self.applicationName = applicationName
        self.wantsLeadership = wantsLeadership
    }

    /// Waits up to `timeoutMilliseconds` for news and returns what is known now.
    public func poll(timeoutMilliseconds: Int) -> SharedLogObservation {
        let now = Deadline.now()
        guard let connection = connectIfDue(now: now) else {
            usleep(UInt32(timeoutMilliseconds) * 1000)
            return observation
        }
        do {
            // Each notification carries the head its append made.
            var heads = try connection.takeNotifications().compactMap(UInt64.init)
            if heads.isEmpty && now < nextHeadRead {
                connection.waitForInput(timeoutMilliseconds: min(timeoutMilliseconds, Int(nextHeadRead - now)))
                heads = try connection.takeNotifications().compactMap(UInt64.init)
            }
            if let newest = heads.max() { observation.head = max(observation.head ?? 0, newest) }
            if Deadline.now() >= nextHeadRead { try readHead(connection) }
        } catch {
            lost(error)
        }
        return observation
    }

    private func readHead(_ connection: PostgresConnection) throws(PostgresError) {
        let rows = try connection.execute(schema.readHead, timeoutMilliseconds: 2_000)
        if let text = rows.first?[0], let head = UInt64(text) { observation.head = head }
        if let refusal = rows.first?[2] { observation.refusal = refusal }
        if wantsLeadership && !observation.isLeader {
            let taken = try connection.execute(
                "SELECT pg_try_advisory_lock($1)", [String(schema.leaderLockKey)], timeoutMilliseconds: 2_000)
            observation.isLeader = taken.first?[0] == "t"
        }
        nextHeadRead = Deadline.now() + headIntervalMilliseconds
    }

    private func connectIfDue(now: Int64) -> PostgresConnection? {
        if let connection { return connection }
        guard now >= nextConnectAttempt else { return nil }
        do {
            let fresh = try PostgresConnection.connect(
                conninfo, applicationName: applicationName + " listener", timeoutMilliseconds: 1_500)
            try fresh.execute("LISTEN \(schema.channel)", timeoutMilliseconds: 2_000)
            // A session lost to a network cut may still hold the leader lock on the server
            // (until its TCP keepalive ends it): end it, so the lock is free for whoever wins.
            if let previousSession {
                try fresh.execute(
                    "SELECT pg_terminate_backend($1)", [String(previousSession)], timeoutMilliseconds: 2_000)
            }
            previousSession = fresh.backendPID
            connection = fresh
            backoffMilliseconds = 0
            observation.isReachable = true
            observation.unreachableSince = nil
            observation.problem = nil
            try readHead(fresh)
            return fresh
        } catch {
            lost(error)
            return nil
        }
    }

    private func lost(_ error: PostgresError) {
        connection = nil
        observation.isLeader = false
        if observation.isReachable {
            observation.isReachable = false
            observation.unreachableSince = Int64(time(nil)) * 1000
        }
        observation.problem = error.description
        backoffMilliseconds = min(max(100, backoffMilliseconds * 2), 1_000)
        nextConnectAttempt = Deadline.now() + Int64(backoffMilliseconds)
    }
}
