import Glibc
import SyncLock

/// The log several daemons share: one PostgreSQL database holding one totally ordered, gapless
/// action log with a chained hash per entry (`LogChain`), so every daemon applies the same
/// actions in the same order and notices a log rewritten under it.
///
/// An append is one call of the server-side `PREFIX_append` (see `SharedLogSchema`)
/// in autocommit: a compare-and-set of the head row from the version this daemon last knew,
/// so one round trip and one WAL flush per batch. When another daemon appended first it throws
/// `.overtaken`, and the caller reads the newer entries and rebases. When the connection breaks
/// after the call was sent, the commit is ambiguous: the journal reconnects, terminates the old
/// server session (`pg_terminate_backend`) and waits until it is gone, then reads the log to
/// learn whether the batch is there; only if the database cannot be reached for that does it
/// throw `.uncertain`, and a later read settles it.
///
/// Every call has a deadline; a database that is down fails calls at once (after a reconnect
/// attempt at most every `longestBackoffMilliseconds`), so dispatches are answered within seconds.
/// Used from one thread at a time, like every journal; not `Sendable`.
public final class PostgresJournal: Journal {
    /// Where the database is, for people.
    public let target: PostgresTarget
    /// The name this daemon records as the host of the actions it appends.
    public let host: String
    /// The app's tables and statements.
    public let schema: SharedLogSchema
    private let conninfo: String
    private let applicationName: String
    private let headFile: SharedLogHeadFile
    private var connection: PostgresConnection?
    /// The newest link of the chain this daemon has verified: the durable head as far as it knows.
    private(set) var head = LogChain.origin
    /// `head`, for other threads: what a `SharedLogAuditor` compares the log with.
    public let verifiedHead = Locked(LogChain.origin)
    /// Whether `head` goes to the head file as it moves: only once `prepareForWriting` has
    /// checked the file. Recovery's reads move `head` too, and must not replace the head this
    /// daemon saw before the check compares the log with it (nor after a refused start).
    private var remembersHead = false
    private var nextConnectAttempt: Int64 = 0
    private var backoffMilliseconds = 0
    private var lastConnectFailure = ""
    /// Whether the last failed statement was sent and then lost (it may have run).
    private var sentButUnanswered = false

    /// How long one statement may take before the call counts as lost. The three deadlines
    /// bound a dispatch's answer however the database fails: the job before it at worst
    /// reconnects, sends and settles (0.6 + 0.9 + 0.7 s), and its own job finds the backoff's
    /// last failure or tries to connect once (0.6 s): within 3 s.
    public var statementTimeoutMilliseconds = 900
    /// How long a connection attempt may take.
    public var connectTimeoutMilliseconds = 600
    /// How long settling an ambiguous append may take: reconnect, end the old session, read.
    public var settleTimeoutMilliseconds = 700
    /// The longest wait between two connection attempts while the database is away (the
    /// backoff doubles from 50 ms up to this): writes resume within it, plus one connection,
    /// of the database's return.
    static var longestBackoffMilliseconds: Int { 400 }

    public var snapshotSpacing: UInt64 = 0
    /// The schema version the database had when this daemon migrated it to the current one
    /// (`nil`: it was current, or new).
    public private(set) var migratedFrom: Int?
    public var location: String { target.description }
    public var isShared: Bool { true }
    public private(set) var lastSnapshotFailure: JournalError?

    /// Connects to `conninfo`, creates the schema if the database has none (once, even when
    /// several daemons start together), and checks that the server keeps commits durable.
    /// `headFile` is where this daemon remembers the head it last saw, to notice a log
    /// rewritten while it was stopped.
    public init(
        conninfo: String, schema: SharedLogSchema, host: String, applicationName: String, headFile path: String
    ) throws(JournalError) {
        target = try PostgresTarget.parse(conninfo).get()
        self.schema = schema
        self.conninfo = conninfo
        self.host = host
        self.applicationName = applicationName
        headFile = SharedLogHeadFile(path: path)
        let connection = try connected(timeoutMilliseconds: 5_000)
        try createSchemaIfNeeded(connection)
        try checkDurability(connection)
    }

    public func prepareForWriting() throws(JournalError) {
        try checkRememberedHead()
        remembersHead = true
        headFile.remember(head)
    }

    public func lastVersion() throws(JournalError) -> UInt64 {
        let rows = try run(schema.readHead, [], operation: "reading the head")
        guard let row = rows.first, let version = row[0].flatMap(UInt64.init) else {
            throw .corrupt(path: location, reason: "the head row is missing")
        }
        return version
    }

    /// Appends `entries`, then saves `snapshot` (a state at or below the head, encoded after
    /// its version became durable) if the append went through or was only overtaken: it is a
    /// copy of what the log already holds, saved at best (a failure to save it is not thrown:
    /// it is `lastSnapshotFailure`).
    public func append(_ entries: [JournalEntry], snapshot: Snapshot?) throws(JournalError) {
        lastSnapshotFailure = nil
        do {
            if !entries.isEmpty { try recordingRefusal { () throws(JournalError) in try appendBatch(entries) } }
        } catch .overtaken(let head) {
            if let snapshot { saveSnapshot(snapshot) }
            throw .overtaken(head: head)
        }
        if let snapshot { saveSnapshot(snapshot) }
    }

    public func entries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry] {
        try recordingRefusal { () throws(JournalError) in try verifiedEntries(after: version, limit: limit) }
    }

    /// Records in the database that the log was found rewritten, so that every host refuses
    /// changes (the append function refuses once the record exists), then throws on.
    private func recordingRefusal<Result>(_ body: () throws(JournalError) -> Result) throws(JournalError) -> Result {
        do {
            return try body()
        } catch {
            if case .rewritten(_, let reason) = error {
                _ = try? run(schema.recordRefusal, ["\(host) found: \(reason)"], operation: "recording the refusal")
            }
            throw error
        }
    }

    private func verifiedEntries(after version: UInt64, limit: Int) throws(JournalError) -> [JournalEntry] {
        let rows = try run(schema.readEntries, [String(version), String(limit)], operation: "reading actions")
        guard !rows.isEmpty else { return [] }
        var link = version == head.version ? head : try link(at: version)
        var entries: [JournalEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            let (entry, hash) = try decode(row)
            guard entry.version == link.version + 1 else {
                throw .rewritten(
                    path: location, reason: "version \(link.version + 1) is missing (the next one is \(entry.version))")
            }
            let next = link.appending(entry)
            guard next.hash == hash else {
                throw .rewritten(
                    path: location, reason: "the entry at version \(entry.version) does not chain to the one before it")
            }
            link = next
            entries.append(entry)
        }
        if version == head.version { advance(to: link) }
        return entries
    }

    public func latestSnapshot() throws(JournalError) -> Snapshot? {
        let rows = try run(schema.readLatestSnapshot, [], operation: "reading the snapshot")
        guard let row = rows.first else { return nil }
        guard let version = row[0].flatMap(UInt64.init), let hash = row[1].flatMap(LogChain.bytes(hex:)),
            let state = row[2]
        else {
            throw .corrupt(path: location, reason: "a snapshot row is malformed")
        }
        let logged = try link(at: version)
        guard logged.hash == hash else {
            throw .rewritten(
                path: location, reason: "the snapshot at version \(version) does not match the log's entry there")
        }
        head = logged
        return Snapshot(version: version, state: Array(state.utf8), ledger: row[3].map { Array($0.utf8) })
    }

    public func snapshot(atOrBelow version: UInt64) throws(JournalError) -> Snapshot? {
        let rows = try run(schema.readSnapshotAtOrBelow, [String(version)], operation: "reading a snapshot")
        guard let row = rows.first else { return nil }
        guard let found = row[0].flatMap(UInt64.init), let hash = row[1].flatMap(LogChain.bytes(hex:)),
            let state = row[2]
        else {
            throw .corrupt(path: location, reason: "a snapshot row is malformed")
        }
        guard try link(at: found).hash == hash else {
            throw .rewritten(
                path: location, reason: "the snapshot at version \(found) does not match the log's entry there")
        }
        return Snapshot(version: found, state: Array(state.utf8), ledger: row[3].map { Array($0.utf8) })
    }

    // MARK: Appending

    private func appendBatch(_ entries: [JournalEntry]) throws(JournalError) {
        // Not sent again: the clients are told at once, within the deadlines, and send it again.
        if try appendBatchOnce(entries) == .notCommitted {
            throw .storage(
                path: location, operation: "appending",
                reason: "the connection broke while appending, and the log shows the batch was not committed")
        }
    }

    /// What became of one attempt to append a batch.
    private enum AppendAttempt {
        case committed
        /// The connection broke after sending, and the log shows the batch is not there.
        case notCommitted
    }

    private func appendBatchOnce(_ entries: [JournalEntry]) throws(JournalError) -> AppendAttempt {
        let base = head
        guard entries[0].version == base.version + 1 else {
            throw .overtaken(head: max(base.version, entries[0].version - 1))
        }
        var links: [LogChain] = []
        links.reserveCapacity(entries.count)
        var link = base
        for entry in entries {
            link = link.appending(entry)
            links.append(link)
        }
        let operation = "appending versions \(entries[0].version)-\(entries.last!.version)"
        var session: Int32 = 0
        let rows: PostgresConnection.Rows
        do {
            rows = try perform(operation) { connection throws(PostgresError) in
                session = connection.backendPID
                return try connection.execute(
                    schema.append, [String(base.version), base.hexHash] + Self.batchArrays(entries, links),
                    timeoutMilliseconds: statementTimeoutMilliseconds)
            }
        } catch .storage(_, _, let reason) where connection == nil && sentButUnanswered {
            sentButUnanswered = false
            return try settleAmbiguousAppend(of: links.last!, base: base, oldSession: session, reason: reason)
        }
        guard let result = rows.first?[0].flatMap(Int64.init) else {
            throw .corrupt(path: location, reason: "\(schema.prefix)_append returned nothing")
        }
        if result < 0 {
            let current = UInt64(-1 - result)
            if current == base.version {
                throw .rewritten(
                    path: location, reason: "the head at version \(current) no longer has the hash this daemon saw")
            }
            if current < base.version { throw movedBack(to: current, from: base.version) }
            throw .overtaken(head: current)
        }
        advance(to: links.last!)
        ringDoorbell()
        return .committed
    }

    /// Tells the other daemons' listeners that the head moved, after the commit and outside
    /// it, without waiting for the answer (the ack does not wait for it; the next statement
    /// reads it first); a failure only costs them the wait for their next head read.
    private func ringDoorbell() {
        guard let connection else { return }
        do {
            try connection.send(schema.doorbell(head: head.version))
        } catch {
            self.connection = nil
        }
    }

    /// The append was sent and the connection broke: find out whether it committed, never guess.
    private func settleAmbiguousAppend(of last: LogChain, base: LogChain, oldSession pid: Int32, reason: String)
        throws(JournalError) -> AppendAttempt
    {
        connection = nil
        let deadline = Deadline(milliseconds: settleTimeoutMilliseconds)
        do {
            let fresh = try connected(timeoutMilliseconds: max(100, deadline.remainingMilliseconds))
            try fresh.execute(
                "SELECT pg_terminate_backend($1)", [String(pid)],
                timeoutMilliseconds: max(100, deadline.remainingMilliseconds))
            while true {
                let rows = try fresh.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = $1", [String(pid)],
                    timeoutMilliseconds: max(100, deadline.remainingMilliseconds))
                if rows.isEmpty { break }
                guard deadline.remainingMilliseconds > 0 else {
                    throw PostgresError.timedOut("waiting for the old session to end")
                }
                usleep(10_000)
            }
        } catch {
            if let error = error as? PostgresError { disconnect(after: error) }
            throw .uncertain(
                path: location,
                reason: "\(reason); the database could not be asked whether the commit happened (\(error))")
        }
        // Only an answer settles it: a read that fails leaves the commit as uncertain as before.
        let logged: LogChain?
        let current: UInt64
        do {
            let remaining = { max(100, deadline.remainingMilliseconds) }
            guard let connection else { throw PostgresError.connectionLost("the settling connection closed") }
            let hash = try connection.execute(
                schema.readHashAt, [String(last.version)], timeoutMilliseconds: remaining())
            logged = hash.first?[0].flatMap(LogChain.bytes(hex:)).map { LogChain(version: last.version, hash: $0) }
            let head = try connection.execute(schema.readHead, timeoutMilliseconds: remaining())
            guard let version = head.first?[0].flatMap(UInt64.init) else {
                throw PostgresError.connectionLost("the head row is missing")
            }
            current = version
        } catch {
            self.connection = nil
            throw .uncertain(path: location, reason: "\(reason); reading the log to find out failed (\(error))")
        }
        if let logged, logged.hash == last.hash {
            advance(to: last)
            return .committed
        }
        if current == base.version { return .notCommitted }
        if current < base.version { throw movedBack(to: current, from: base.version) }
        throw .overtaken(head: current)
    }

    /// The head is below one this daemon saw committed: the log lost entries under it.
    private func movedBack(to current: UInt64, from seen: UInt64) -> JournalError {
        .rewritten(
            path: location,
            reason:
                "it ends at version \(current), but this daemon saw version \(seen) (commits were lost: a restore or a failover?)"
        )
    }

    /// Saves `snapshot` and prunes the older ones. Why it was not saved is kept in
    /// `lastSnapshotFailure`; a pruning that fails once it is saved only leaves more snapshots
    /// than needed, until the next one prunes them.
    private func saveSnapshot(_ snapshot: Snapshot) {
        do throws(JournalError) {
            guard snapshot.version <= head.version else {
                throw JournalError.storage(
                    path: location, operation: "saving a snapshot",
                    reason: "its version \(snapshot.version) is past the log's head at \(head.version)")
            }
            let link = snapshot.version == head.version ? head : try link(at: snapshot.version)
            let savedAt = Int64(time(nil)) * 1000
            _ = try run(
                schema.writeSnapshot,
                [
                    String(snapshot.version), link.hexHash, String(decoding: snapshot.state, as: UTF8.self),
                    snapshot.ledger.map { String(decoding: $0, as: UTF8.self) },
                    String(savedAt),
                ],
                operation: "saving a snapshot")
        } catch {
            lastSnapshotFailure = error
            return
        }
        _ = try? run(schema.pruneSnapshots, [String(snapshotSpacing)], operation: "pruning snapshots")
    }

    /// The batch as the typed arrays `PREFIX_append` takes, in its parameters' order: names,
    /// payloads, acceptance times, uids, pids, client ids, sequences, hosts, chain hashes and
    /// acceptance identifiers.
    static func batchArrays(_ entries: [JournalEntry], _ links: [LogChain]) -> [String?] {
        [
            PostgresArrayLiteral.text(entries.lazy.map { $0.name }),
            PostgresArrayLiteral.text(entries.lazy.map { String(decoding: $0.payload, as: UTF8.self) }),
            PostgresArrayLiteral.integers(entries.lazy.map { $0.acceptedAt }),
            PostgresArrayLiteral.integers(entries.lazy.map { $0.peerUID.map(Int64.init) }),
            PostgresArrayLiteral.integers(entries.lazy.map { $0.peerPID.map(Int64.init) }),
            PostgresArrayLiteral.text(entries.lazy.map { $0.clientID }),
            PostgresArrayLiteral.integers(entries.lazy.map { $0.clientSequence.map { Int64(bitPattern: $0) } }),
            PostgresArrayLiteral.text(entries.lazy.map { $0.host }),
            PostgresArrayLiteral.bytes(links.lazy.map(\.hash)),
            PostgresArrayLiteral.text(entries.lazy.map { $0.acceptanceIdentifier?.description }),
        ]
    }

    // MARK: Reading

    /// The chain link at `version`, read from the log (the origin for version 0).
    private func link(at version: UInt64) throws(JournalError) -> LogChain {
        guard version > 0 else { return .origin }
        let rows = try run(schema.readHashAt, [String(version)], operation: "reading the hash at version \(version)")
        guard let text = rows.first?[0] else {
            throw .rewritten(path: location, reason: "the log has no entry at version \(version)")
        }
        guard let hash = LogChain.bytes(hex: text) else {
            throw .corrupt(path: location, reason: "the hash at version \(version) is malformed")
        }
        return LogChain(version: version, hash: hash)
    }

    private func decode(_ row: [String?]) throws(JournalError) -> (JournalEntry, [UInt8]) {
        guard let decoded = Self.decode(row) else {
            throw .corrupt(path: location, reason: "an entry of the log is malformed")
        }
        return decoded
    }

    /// A row of `readEntries` as the entry and its stored chain hash, `nil` if malformed.
    static func decode(_ row: [String?]) -> (JournalEntry, [UInt8])? {
        guard row.count == 11, let version = row[0].flatMap(UInt64.init), let name = row[1], let payload = row[2],
            let acceptedAt = row[3].flatMap(Int64.init), let hash = row[9].flatMap(LogChain.bytes(hex:))
        else { return nil }
        var acceptanceIdentifier: AcceptanceIdentifier?
        if let text = row[10] {
            guard let identifier = AcceptanceIdentifier(text: text.utf8) else { return nil }
            acceptanceIdentifier = identifier
        }
        let entry = JournalEntry(
            version: version, name: name, payload: Array(payload.utf8), acceptedAt: acceptedAt,
            peerUID: row[4].flatMap(UInt32.init), peerPID: row[5].flatMap(Int32.init),
            clientID: row[6], clientSequence: row[7].flatMap(UInt64.init), host: row[8],
            acceptanceIdentifier: acceptanceIdentifier)
        return (entry, hash)
    }

    /// Moves the verified head to `link`, and the head file with it once it was checked.
    private func advance(to link: LogChain) {
        head = link
        verifiedHead.withLock { $0 = link }
        if remembersHead { headFile.remember(link) }
    }

    /// Refuses a log that no longer holds the head this daemon saw last time it ran here.
    private func checkRememberedHead() throws(JournalError) {
        guard let remembered = headFile.read() else { return }
        let current = try lastVersion()
        let fix = "if the database was replaced on purpose, remove \(headFile.path)"
        guard current >= remembered.version else {
            throw .rewritten(
                path: location,
                reason:
                    "it ends at version \(current), but this daemon saw version \(remembered.version) (commits were lost: a restore or a failover?); \(fix)"
            )
        }
        guard try link(at: remembered.version).hash == remembered.hash else {
            throw .rewritten(
                path: location,
                reason: "the entry at version \(remembered.version) is not the one this daemon saw; \(fix)")
        }
    }

    // MARK: The connection

    /// The open connection, or a new one: at once if the last attempt failed long enough ago,
    /// else the last failure again (so a database that is down costs no wait per call).
    private func connected(timeoutMilliseconds: Int) throws(JournalError) -> PostgresConnection {
        if let connection { return connection }
        let now = Deadline.now()
        guard now >= nextConnectAttempt else {
            throw .storage(path: location, operation: "connecting", reason: lastConnectFailure)
        }
        let deadline = Deadline(milliseconds: timeoutMilliseconds)
        do {
            let fresh = try PostgresConnection.connect(
                conninfo, applicationName: applicationName, timeoutMilliseconds: timeoutMilliseconds)
            try fresh.execute(
                "SET synchronous_commit = on", timeoutMilliseconds: max(1, deadline.remainingMilliseconds))
            connection = fresh
            backoffMilliseconds = 0
            return fresh
        } catch {
            lastConnectFailure = error.description
            backoffMilliseconds = min(max(50, backoffMilliseconds * 2), Self.longestBackoffMilliseconds)
            // An attempt that timed out has waited already (a network cut): the next may come at once.
            if case .timedOut = error {
                nextConnectAttempt = Deadline.now()
            } else {
                nextConnectAttempt = Deadline.now() + Int64(backoffMilliseconds)
            }
            throw .storage(path: location, operation: "connecting", reason: error.description)
        }
    }

    /// Runs a statement on the connection; a broken connection is dropped for the next call.
    @discardableResult
    private func run(_ sql: String, _ parameters: [String?], operation: String) throws(JournalError)
        -> PostgresConnection.Rows
    {
        try perform(operation, readOnly: true) { connection throws(PostgresError) in
            try connection.execute(sql, parameters, timeoutMilliseconds: statementTimeoutMilliseconds)
        }
    }

    /// Runs `body` on the connection. A connection found dead before anything was sent (the
    /// server restarted since the last call) is replaced once, and so is one that broke while
    /// a `readOnly` statement ran; after any other failure of the connection it is dropped, and
    /// `sentButUnanswered` tells whether the statement was sent.
    private func perform(
        _ operation: String, readOnly: Bool = false,
        _ body: (PostgresConnection) throws(PostgresError) -> PostgresConnection.Rows
    ) throws(JournalError) -> PostgresConnection.Rows {
        sentButUnanswered = false
        var attempt = 0
        while true {
            let current = try connected(timeoutMilliseconds: connectTimeoutMilliseconds)
            do {
                return try body(current)
            } catch {
                if case .server(let state, let message) = error {
                    // Another host found the log rewritten: the append refuses, as every host must.
                    if state == SharedLogSchema.refusalState { throw .rewritten(path: location, reason: message) }
                    // A version beyond the head is taken already: a row was put in by hand.
                    if state == "23505" && message.contains("\"\(schema.prefix)_log_pkey\"") {
                        throw .rewritten(path: location, reason: "the log holds rows beyond its head (\(message))")
                    }
                    throw .storage(path: location, operation: operation, reason: error.description)
                }
                connection = nil
                let retrySafe: Bool
                switch error {
                case .connectionLost: retrySafe = true
                case .lostAfterSending: retrySafe = readOnly
                default: retrySafe = false
                }
                if retrySafe, attempt == 0 {
                    attempt += 1
                    continue
                }
                if case .lostAfterSending = error { sentButUnanswered = true }
                throw .storage(path: location, operation: operation, reason: error.description)
            }
        }
    }

    private func disconnect(after error: PostgresError) {
        if case .server = error { return }
        connection = nil
    }

    /// Creates the tables and the append function unless they exist, and migrates an older
    /// schema to this build's, under an advisory lock so that daemons starting together do it
    /// once; refuses a schema newer than this build's.
    private func createSchemaIfNeeded(_ connection: PostgresConnection) throws(JournalError) {
        do {
            migratedFrom = try Self.createSchemaIfNeeded(schema, on: connection, location: location)
        } catch {
            self.connection = nil
            throw error
        }
    }
}
