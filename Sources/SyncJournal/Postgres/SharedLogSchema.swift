/// The names and statements of one app's shared log in a PostgreSQL database: its tables, its
/// append function, its notification channel and its advisory locks, all named after the
/// app's daemon (PREFIX is `todod` for `todod`: `todod_log`), so that two apps can share a database. Created once
/// on first use.
///
/// ```
/// PREFIX_meta(key text PRIMARY KEY, value text)   -- schema_version; refusal, once a host found
///                                                 -- the log rewritten (every host then refuses)
/// PREFIX_head(only_row boolean PRIMARY KEY, version bigint, hash bytea)   -- one row
/// PREFIX_log(version bigint PRIMARY KEY, name, payload text, accepted_at bigint,
///           peer_uid, peer_pid, client_id, client_sequence, host, hash bytea,
///           acceptance_id uuid,                   -- set: the payload is as received (schema 3)
///           UNIQUE (client_id, client_sequence))   -- append-only: triggers refuse UPDATE,
///                                                  -- DELETE, TRUNCATE and rows beyond the head
/// PREFIX_snapshots(version bigint PRIMARY KEY, hash bytea, state text, ledger text, saved_at)
/// PREFIX_append(base, base_hash, names[], payloads[], …, hashes[]) → the new head, or
///           -(head + 1) when overtaken (schema 2: typed arrays; schema 1 took one JSON text;
///           schema 3 also takes the acceptance identifiers)
/// ```
///
/// The version is never a sequence (sequences leave gaps and hand out numbers out of commit
/// order): `PREFIX_append` moves the head row from `base` to `base + n` as a compare-and-set and
/// inserts the batch in the same statement, so the head row is locked only inside the server,
/// never across a client's round trip. A second daemon appending on the same base waits for the
/// row, then finds it moved and gets the new head back instead (read committed re-checks the
/// condition on the updated row). The append does not notify: a notifying transaction holds a
/// lock of the whole cluster through its commit's flush, which would put every host's commits
/// in one line; the doorbell (`doorbell`) rings afterwards in a transaction of its own that
/// waits for no flush.
///
/// The function runs with its owner's rights (`SECURITY DEFINER`), so the daemons' role needs
/// no right to change the log's tables itself (docs/SCALE_OUT.md, "Roles").
public struct SharedLogSchema: Sendable, Equatable {
    /// The schema version this build creates and reads; an older database is migrated to it.
    public static let schemaVersion = 3
    /// The SQLSTATE of the append refusing because a host recorded a refusal.
    static let refusalState = "TD001"

    /// What every name starts with: the daemon's name with `-` as `_` (`todod`).
    public let prefix: String
    /// The advisory lock key under which daemons starting together create the schema once.
    let schemaLockKey: Int64
    /// The advisory lock key whose holder runs the side effects that act for every host.
    public let leaderLockKey: Int64
    /// The channel notified with the new head after every append.
    let channel: String
    /// Schema 1, as the first release created it; `migrations` take it from there.
    let createTables: String
    let createAppendFunction: String
    /// What takes the schema from version `n - 1` to `n`, in order, each with the version it
    /// makes (run in the transaction that holds the schema lock).
    let migrations: [Migration]
    /// Records why every host must refuse changes (`$1`), unless another host did first.
    let recordRefusal: String
    /// The head, the newest version in the log, and the refusal if any, seen at one instant.
    let readAuditHead: String
    /// Every snapshot's version and hash.
    let readSnapshotLinks: String
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
    /// One append: base, base hash (hex), then the batch's arrays (`PostgresJournal.batchArrays`).
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
            INSERT INTO \(prefix)_meta (key, value) VALUES ('schema_version', '1') ON CONFLICT DO NOTHING;
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

        migrations = [
            Migration(version: 2, sql: Self.schema2(prefix)), Migration(version: 3, sql: Self.schema3(prefix)),
        ]
        recordRefusal =
            "INSERT INTO \(prefix)_meta (key, value) VALUES ('refusal', $1) ON CONFLICT (key) DO NOTHING"
        readAuditHead = """
            SELECT h.version, h.hash, (SELECT max(version) FROM \(prefix)_log),
                   (SELECT value FROM \(prefix)_meta WHERE key = 'refusal')
            FROM \(prefix)_head h
            """
        readSnapshotLinks = "SELECT version, hash FROM \(prefix)_snapshots ORDER BY version"

        readEntries = """
            SELECT version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash,
                acceptance_id
            FROM \(prefix)_log WHERE version > $1 ORDER BY version LIMIT $2
            """

        readHead = """
            SELECT h.version, h.hash, (SELECT value FROM \(prefix)_meta WHERE key = 'refusal') FROM \(prefix)_head h
            """

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
            VALUES ($1, decode($2, 'hex'), $3, $4, $5)
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
        append = """
            SELECT \(prefix)_append($1::bigint, decode($2, 'hex'), $3::text[], $4::text[], $5::bigint[], $6::bigint[],
                $7::integer[], $8::text[], $9::bigint[], $10::text[], $11::bytea[], $12::uuid[])
            """
    }

    /// Schema 2: the append takes typed arrays (no JSON read field by field) and no longer
    /// notifies; it refuses every batch once a host recorded a refusal; the log is append-only.
    private static func schema2(_ prefix: String) -> String {
        // The functions keep the search path of this transaction: the schema the tables are in,
        // then the catalog, and the session's temporary tables last, so that no session can
        // put a table of its own in front of the log's (the append runs with its owner's rights).
        """
        SELECT set_config('search_path', quote_ident(current_schema()) || ', pg_catalog, pg_temp', true);
        DROP FUNCTION IF EXISTS \(prefix)_append(bigint, bytea, json);
        CREATE FUNCTION \(prefix)_append(
            base bigint, base_hash bytea, names text[], payloads text[], accepted bigint[], uids bigint[],
            pids integer[], client_ids text[], sequences bigint[], hosts text[], hashes bytea[]) RETURNS bigint
        LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        DECLARE
            n integer := cardinality(names);
            current bigint;
            refusal text;
        BEGIN
            SELECT value INTO refusal FROM \(prefix)_meta WHERE key = 'refusal';
            IF FOUND THEN
                RAISE EXCEPTION 'every host refuses changes: %', refusal USING ERRCODE = 'TD001';
            END IF;
            IF n IS NULL OR n = 0 THEN
                RAISE EXCEPTION '\(prefix)_append: an empty batch';
            END IF;
            UPDATE \(prefix)_head SET version = base + n, hash = hashes[n] WHERE version = base AND hash = base_hash;
            IF NOT FOUND THEN
                SELECT version INTO current FROM \(prefix)_head;
                RETURN -1 - current;
            END IF;
            INSERT INTO \(prefix)_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash)
            SELECT base + e.o, e.n, e.p, e.a, e.u, e.i, e.c, e.s, e.h, e.x
            FROM unnest(names, payloads, accepted, uids, pids, client_ids, sequences, hosts, hashes)
                WITH ORDINALITY AS e(n, p, a, u, i, c, s, h, x, o);
            RETURN base + n;
        END $$;
        CREATE OR REPLACE FUNCTION \(prefix)_refuse_rewrite() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
        BEGIN
            RAISE EXCEPTION '\(prefix)_log is append-only: % refused', TG_OP USING ERRCODE = 'TD002';
        END $$;
        DROP TRIGGER IF EXISTS \(prefix)_log_append_only ON \(prefix)_log;
        CREATE TRIGGER \(prefix)_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON \(prefix)_log
            FOR EACH STATEMENT EXECUTE FUNCTION \(prefix)_refuse_rewrite();
        CREATE OR REPLACE FUNCTION \(prefix)_refuse_insert_beyond_head() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
        BEGIN
            IF (SELECT max(version) FROM inserted) > (SELECT version FROM \(prefix)_head) THEN
                RAISE EXCEPTION '\(prefix)_log takes rows only through \(prefix)_append' USING ERRCODE = 'TD002';
            END IF;
            RETURN NULL;
        END $$;
        DROP TRIGGER IF EXISTS \(prefix)_log_appended_through_head ON \(prefix)_log;
        CREATE TRIGGER \(prefix)_log_appended_through_head AFTER INSERT ON \(prefix)_log
            REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION \(prefix)_refuse_insert_beyond_head();
        UPDATE \(prefix)_meta SET value = '2' WHERE key = 'schema_version';
        """
    }

    /// Schema 3: actions kept as received, with the identifier their acceptance drew (NULL for
    /// the rows already there, which keep the accepted action); the append takes those
    /// identifiers as one more array.
    private static func schema3(_ prefix: String) -> String {
        """
        SELECT set_config('search_path', quote_ident(current_schema()) || ', pg_catalog, pg_temp', true);
        ALTER TABLE \(prefix)_log ADD COLUMN IF NOT EXISTS acceptance_id uuid;
        DROP FUNCTION IF EXISTS \(prefix)_append(
            bigint, bytea, text[], text[], bigint[], bigint[], integer[], text[], bigint[], text[], bytea[]);
        CREATE FUNCTION \(prefix)_append(
            base bigint, base_hash bytea, names text[], payloads text[], accepted bigint[], uids bigint[],
            pids integer[], client_ids text[], sequences bigint[], hosts text[], hashes bytea[],
            acceptance_ids uuid[]) RETURNS bigint
        LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
        DECLARE
            n integer := cardinality(names);
            current bigint;
            refusal text;
        BEGIN
            SELECT value INTO refusal FROM \(prefix)_meta WHERE key = 'refusal';
            IF FOUND THEN
                RAISE EXCEPTION 'every host refuses changes: %', refusal USING ERRCODE = 'TD001';
            END IF;
            IF n IS NULL OR n = 0 THEN
                RAISE EXCEPTION '\(prefix)_append: an empty batch';
            END IF;
            UPDATE \(prefix)_head SET version = base + n, hash = hashes[n] WHERE version = base AND hash = base_hash;
            IF NOT FOUND THEN
                SELECT version INTO current FROM \(prefix)_head;
                RETURN -1 - current;
            END IF;
            INSERT INTO \(prefix)_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash, acceptance_id)
            SELECT base + e.o, e.n, e.p, e.a, e.u, e.i, e.c, e.s, e.h, e.x, e.d
            FROM unnest(names, payloads, accepted, uids, pids, client_ids, sequences, hosts, hashes, acceptance_ids)
                WITH ORDINALITY AS e(n, p, a, u, i, c, s, h, x, d, o);
            RETURN base + n;
        END $$;
        UPDATE \(prefix)_meta SET value = '3' WHERE key = 'schema_version';
        """
    }

    /// What moves the schema to `version` from the one before it.
    struct Migration: Sendable, Equatable {
        let version: Int
        let sql: String
    }

    /// Rings the doorbell with the new head: one statement, so a transaction of its own, that
    /// waits for no flush (it changes nothing; a lost notification costs a listener at most
    /// its next head read).
    func doorbell(head: UInt64) -> String {
        "SELECT set_config('synchronous_commit', 'off', true), pg_notify('\(channel)', '\(head)')"
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
