/// The names and statements of one app's shared log in a PostgreSQL database: its tables, its
/// append function, its notification channel and its advisory locks, all named after the
/// app's daemon (PREFIX is `todod` for `todod`: `todod_log`), so that two apps can share a database. Created once
/// on first use.
///
/// ```
/// PREFIX_meta(key text PRIMARY KEY, value text)                 -- schema_version
/// PREFIX_head(only_row boolean PRIMARY KEY, version bigint, hash bytea)   -- one row
/// PREFIX_log(version bigint PRIMARY KEY, name, payload text, accepted_at bigint,
///           peer_uid, peer_pid, client_id, client_sequence, host, hash bytea,
///           UNIQUE (client_id, client_sequence))
/// PREFIX_snapshots(version bigint PRIMARY KEY, hash bytea, state text, ledger text, saved_at)
/// PREFIX_append(base, base_hash, batch json) → the new head, or -(head + 1) when overtaken
/// ```
///
/// The version is never a sequence (sequences leave gaps and hand out numbers out of commit
/// order): `PREFIX_append` moves the head row from `base` to `base + n` as a compare-and-set and
/// inserts the batch in the same statement, so the head row is locked only inside the server,
/// never across a client's round trip. A second daemon appending on the same base waits for the
/// row, then finds it moved and gets the new head back instead (read committed re-checks the
/// condition on the updated row).
public struct SharedLogSchema: Sendable, Equatable {
    /// The schema version this build creates and reads.
    public static let schemaVersion = 1

    /// What every name starts with: the daemon's name with `-` as `_` (`todod`).
    public let prefix: String
    /// The advisory lock key under which daemons starting together create the schema once.
    let schemaLockKey: Int64
    /// The advisory lock key whose holder runs the side effects that act for every host.
    public let leaderLockKey: Int64
    /// The channel notified with the new head after every append.
    let channel: String
    let createTables: String
    let createAppendFunction: String
    let readEntries: String
    let readHead: String
    let readHashAt: String
    let readLatestSnapshot: String
    /// The newest snapshot at or below a version (`$1`).
    let readSnapshotAtOrBelow: String
    let writeSnapshot: String
    let pruneSnapshots: String
    /// Whether the tables exist.
    let tablesExist: String
    /// The schema version recorded in the database.
    let readSchemaVersion: String
    /// One append: base, base hash (hex), batch (JSON).
    let append: String

    /// The schema of the daemon named `daemonName` (an `AppIdentity`'s, so lowercase letters,
    /// digits and `-`).
    public init(daemonName: String) {
        let prefix = String(daemonName.map { $0 == "-" ? "_" : $0 })
        precondition(
            prefix.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 },
            "not a daemon name: \(daemonName)")
        self.prefix = prefix
        let lockBase = Self.lockBase(prefix)
        schemaLockKey = lockBase | 1
        leaderLockKey = lockBase | 2
        channel = prefix + "_log"

        createTables = """
            CREATE TABLE IF NOT EXISTS \(prefix)_meta (key text PRIMARY KEY, value text NOT NULL);
            CREATE TABLE IF NOT EXISTS \(prefix)_head (
                only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                version bigint NOT NULL,
                hash bytea NOT NULL);
            CREATE TABLE IF NOT EXISTS \(prefix)_log (
                version bigint PRIMARY KEY,
                name text NOT NULL,
                payload text NOT NULL,
                accepted_at bigint NOT NULL,
                peer_uid bigint,
                peer_pid integer,
                client_id text,
                client_sequence bigint,
                host text,
                hash bytea NOT NULL,
                UNIQUE (client_id, client_sequence),
                CHECK ((client_id IS NULL) = (client_sequence IS NULL)));
            CREATE TABLE IF NOT EXISTS \(prefix)_snapshots (
                version bigint PRIMARY KEY,
                hash bytea NOT NULL,
                state text NOT NULL,
                ledger text,
                saved_at bigint NOT NULL);
            INSERT INTO \(prefix)_head (version, hash) VALUES (0, decode(repeat('00', 32), 'hex')) ON CONFLICT DO NOTHING;
            INSERT INTO \(prefix)_meta (key, value) VALUES ('schema_version', '\(Self.schemaVersion)') ON CONFLICT DO NOTHING;
            """

        // The append function. Every text field travels hex-encoded, so the batch needs no escaping.
        createAppendFunction = """
            CREATE OR REPLACE FUNCTION \(prefix)_append(base bigint, base_hash bytea, batch json) RETURNS bigint
            LANGUAGE plpgsql AS $$
            DECLARE
                n integer := json_array_length(batch);
                current bigint;
            BEGIN
                IF n = 0 OR (batch -> 0 ->> 'v')::bigint <> base + 1 THEN
                    RAISE EXCEPTION '\(prefix)_append: the batch does not start at version %', base + 1;
                END IF;
                UPDATE \(prefix)_head SET version = base + n, hash = decode(batch -> (n - 1) ->> 'x', 'hex')
                    WHERE version = base AND hash = base_hash;
                IF NOT FOUND THEN
                    SELECT version INTO current FROM \(prefix)_head;
                    RETURN -1 - current;
                END IF;
                INSERT INTO \(prefix)_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash)
                SELECT (e ->> 'v')::bigint,
                       convert_from(decode(e ->> 'n', 'hex'), 'UTF8'),
                       convert_from(decode(e ->> 'p', 'hex'), 'UTF8'),
                       (e ->> 'a')::bigint,
                       (e ->> 'u')::bigint,
                       (e ->> 'i')::integer,
                       convert_from(decode(e ->> 'c', 'hex'), 'UTF8'),
                       (e ->> 's')::bigint,
                       convert_from(decode(e ->> 'h', 'hex'), 'UTF8'),
                       decode(e ->> 'x', 'hex')
                FROM json_array_elements(batch) AS e;
                PERFORM pg_notify('\(prefix)_log', (base + n)::text);
                RETURN base + n;
            END $$;
            """

        readEntries = """
            SELECT version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash
            FROM \(prefix)_log WHERE version > $1 ORDER BY version LIMIT $2
            """

        readHead = "SELECT version, hash FROM \(prefix)_head"

        readHashAt = "SELECT hash FROM \(prefix)_log WHERE version = $1"

        readLatestSnapshot = """
            SELECT version, hash, state, ledger FROM \(prefix)_snapshots
            WHERE version <= (SELECT version FROM \(prefix)_head) ORDER BY version DESC LIMIT 1
            """

        readSnapshotAtOrBelow = """
            SELECT version, hash, state, ledger FROM \(prefix)_snapshots
            WHERE version <= $1 ORDER BY version DESC LIMIT 1
            """

        writeSnapshot = """
            INSERT INTO \(prefix)_snapshots (version, hash, state, ledger, saved_at)
            VALUES ($1, decode($2, 'hex'), convert_from(decode($3, 'hex'), 'UTF8'), convert_from(decode($4, 'hex'), 'UTF8'), $5)
            ON CONFLICT (version) DO NOTHING
            """

        // Keeps the three newest snapshots, and the oldest of each span of $1 versions (none
        // when $1 is 0).
        pruneSnapshots = """
            DELETE FROM \(prefix)_snapshots WHERE version < (SELECT min(version) FROM (SELECT version FROM \(prefix)_snapshots ORDER BY version DESC LIMIT 3) AS kept)
            AND ($1::bigint = 0 OR version NOT IN (SELECT min(version) FROM \(prefix)_snapshots GROUP BY version / NULLIF($1::bigint, 0)))
            """
        tablesExist = "SELECT to_regclass('\(prefix)_meta') IS NOT NULL"
        readSchemaVersion = "SELECT value FROM \(prefix)_meta WHERE key = 'schema_version'"
        append = "SELECT \(prefix)_append($1, decode($2, 'hex'), $3::json)"
    }

    /// The high bits of the advisory lock keys: the prefix's bytes when it has at most five
    /// (`todod`'s keys are those of earlier releases), else a hash of it.
    private static func lockBase(_ prefix: String) -> Int64 {
        let bytes = Array(prefix.utf8)
        if bytes.count <= 5 { return bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) } << 8 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int64(bitPattern: hash & 0x7fff_ffff_ffff_ff00)
    }
}
