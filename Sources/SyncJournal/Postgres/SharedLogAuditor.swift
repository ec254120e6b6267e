import Glibc

/// What one pass of a `SharedLogAuditor` found.
public enum SharedLogAudit: Equatable, Sendable {
    /// Every entry up to `head` chains, the head row and every snapshot match the chain, and
    /// the log holds what this daemon applied; `entries` were read in `milliseconds`.
    case intact(head: UInt64, entries: Int, milliseconds: Int64)
    /// The log was changed under the daemons: why, in words. Recorded in the database, so that
    /// every host refuses changes.
    case rewritten(String)
    /// The database did not answer; the pass is tried again later.
    case unavailable(String)
}

/// Verifies the whole shared log again and again from the beginning, on a connection of its
/// own: a row changed, deleted or inserted anywhere (hash left alone or recomputed, below or
/// above any daemon's head) no longer chains, or no longer ends in the head row, or no longer
/// holds at the daemon's own durable version the link the daemon applied. Only what a daemon
/// reads is checked on the way; this catches what a role with rights over the tables does
/// to rows already read.
///
/// A pass reads the entries in chunks and sleeps after each chunk for `pacing` times as long
/// as it took, so that it costs about 1 / (1 + `pacing`) of one core while it runs. Blocking;
/// used from one thread; not `Sendable`.
public final class SharedLogAuditor {
    /// Entries read per query.
    static var chunk: Int { 1_000 }

    private let conninfo: String
    private let schema: SharedLogSchema
    private let applicationName: String
    private let host: String
    private var connection: PostgresConnection?
    /// How many times as long as a chunk took the pass sleeps after it.
    public var pacing = 19

    /// An auditor of the log of `schema` in the database of `conninfo`; `host` names this
    /// daemon in the refusal it records.
    public init(conninfo: String, schema: SharedLogSchema, applicationName: String, host: String) {
        self.conninfo = conninfo
        self.schema = schema
        self.applicationName = applicationName
        self.host = host
    }

    /// One whole pass, comparing the log with `known` (the newest link this daemon verified
    /// and applied; read again at each chunk, since it moves meanwhile); stops early when
    /// `shouldStop` says so (then it reports `.unavailable`).
    public func verify(known: () -> LogChain, shouldStop: () -> Bool) -> SharedLogAudit {
        let started = Deadline.now()
        // Read before the head: what this daemon applied then was committed then, so the head
        // read next is at least as new; read after, it could hold a commit made meanwhile.
        let knownAtStart = known()
        do {
            let connection = try connected()
            guard let headRow = try connection.execute(schema.readAuditHead, timeoutMilliseconds: 5_000).first,
                let headVersion = headRow[0].flatMap(UInt64.init),
                let headHash = headRow[1].flatMap(LogChain.bytes(hex:))
            else { return .unavailable("the head row is missing or malformed") }
            if let refusal = headRow[3] { return .rewritten(refusal) }
            if knownAtStart.version > headVersion {
                return refuse(
                    "it ends at version \(headVersion), but this daemon saw version \(knownAtStart.version) (commits were lost: a restore or a failover?)"
                )
            }
            let newest = headRow[2].flatMap(UInt64.init) ?? 0
            if newest != headVersion {
                return refuse(
                    newest > headVersion
                        ? "the log holds version \(newest), beyond its head at version \(headVersion)"
                        : "the log ends at version \(newest), below its head at version \(headVersion)")
            }
            var snapshots: [UInt64: [UInt8]] = [:]
            for row in try connection.execute(schema.readSnapshotLinks, timeoutMilliseconds: 5_000) {
                if let version = row[0].flatMap(UInt64.init), let hash = row[1].flatMap(LogChain.bytes(hex:)) {
                    snapshots[version] = hash
                }
            }
            var link = LogChain.origin
            var count = 0
            while link.version < headVersion {
                if shouldStop() { return .unavailable("stopped") }
                let chunkStarted = Deadline.microseconds()
                let rows = try connection.execute(
                    schema.readEntries, [String(link.version), String(Self.chunk)], timeoutMilliseconds: 10_000)
                guard !rows.isEmpty else { return refuse("the log ends at version \(link.version), below its head") }
                let knownNow = known()
                for row in rows {
                    guard let (entry, hash) = PostgresJournal.decode(row) else {
                        return refuse("the entry after version \(link.version) is malformed")
                    }
                    guard entry.version == link.version + 1 else {
                        return refuse("version \(link.version + 1) is missing (the next one is \(entry.version))")
                    }
                    // Appended after the head was read: the next pass verifies it.
                    guard entry.version <= headVersion else { break }
                    link = link.appending(entry)
                    guard link.hash == hash else {
                        return refuse("the entry at version \(entry.version) does not chain to the one before it")
                    }
                    if entry.version == knownNow.version, link.hash != knownNow.hash {
                        return refuse("the entry at version \(entry.version) is not the one this daemon applied")
                    }
                    if let snapshotHash = snapshots[entry.version], snapshotHash != link.hash {
                        return refuse("the snapshot at version \(entry.version) does not match the log's entry there")
                    }
                    count += 1
                }
                if pacing > 0 && link.version < headVersion {
                    let rest = (Deadline.microseconds() - chunkStarted) * Int64(pacing)
                    if !Self.sleep(microseconds: rest, unless: shouldStop) { return .unavailable("stopped") }
                }
            }
            guard link.hash == headHash else {
                return refuse("the head row's hash is not the hash of the entry at version \(headVersion)")
            }
            return .intact(head: headVersion, entries: count, milliseconds: Deadline.now() - started)
        } catch {
            connection = nil
            return .unavailable(error.description)
        }
    }

    /// Sleeps `microseconds` in steps of at most 0.1 s; `false` as soon as `stopped()` says so.
    private static func sleep(microseconds: Int64, unless stopped: () -> Bool) -> Bool {
        var left = microseconds
        while left > 0 {
            if stopped() { return false }
            let step = min(left, 100_000)
            usleep(UInt32(step))
            left -= step
        }
        return !stopped()
    }

    /// Records `reason` as every host's refusal (unless one is recorded) and returns it.
    private func refuse(_ reason: String) -> SharedLogAudit {
        let recorded = "\(host) found: \(reason)"
        _ = record(refusal: recorded)
        return .rewritten(recorded)
    }

    /// Records `refusal` in the database unless a refusal is recorded already; whether the
    /// database has one now (the caller tries again until it has: until then the other hosts
    /// may go on writing).
    public func record(refusal: String) -> Bool {
        do {
            try connected().execute(schema.recordRefusal, [refusal], timeoutMilliseconds: 5_000)
            return true
        } catch {
            connection = nil
            return false
        }
    }

    private func connected() throws(PostgresError) -> PostgresConnection {
        if let connection { return connection }
        let fresh = try PostgresConnection.connect(
            conninfo, applicationName: applicationName + " auditor", timeoutMilliseconds: 5_000)
        connection = fresh
        return fresh
    }
}
