/// The shared log's tables and its append function, created once on first use.
///
/// ```
/// todod_meta(key text PRIMARY KEY, value text)                 -- schema_version
/// todod_head(only_row boolean PRIMARY KEY, version bigint, hash bytea)   -- one row
/// todod_log(version bigint PRIMARY KEY, name, payload text, accepted_at bigint,
///           peer_uid, peer_pid, client_id, client_sequence, host, hash bytea,
///           UNIQUE (client_id, client_sequence))
/// todod_snapshots(version bigint PRIMARY KEY, hash bytea, state text, ledger text, saved_at)
/// todod_append(base, base_hash, batch json) → the new head, or -(head + 1) when overtaken
/// ```
///
/// The version is never a sequence (sequences leave gaps and hand out numbers out of commit
/// order): `todod_append` moves the head row from `base` to `base + n` as a compare-and-set and
/// inserts the batch in the same statement, so the head row is locked only inside the server,
/// never across a client's round trip. A second daemon appending on the same base waits for the
/// row, then finds it moved and gets the new head back instead (read committed re-checks the
/// condition on the updated row).
extension PostgresJournal {
    /// The schema version this build creates and reads.
    public static let schemaVersion = 1

    /// The advisory lock key under which daemons starting together create the schema once.
    static let schemaLockKey: Int64 = 0x746f_646f_6401

    /// The advisory lock key whose holder runs the side effects that act for every host.
    public static let leaderLockKey: Int64 = 0x746f_646f_6402

    /// The channel notified with the new head after every append.
    static let channel = "todod_log"

    static let createTables = """
        CREATE TABLE IF NOT EXISTS todod_meta (key text PRIMARY KEY, value text NOT NULL);
        CREATE TABLE IF NOT EXISTS todod_head (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            version bigint NOT NULL,
            hash bytea NOT NULL);
        CREATE TABLE IF NOT EXISTS todod_log (
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
        CREATE TABLE IF NOT EXISTS todod_snapshots (
            version bigint PRIMARY KEY,
            hash bytea NOT NULL,
            state text NOT NULL,
            ledger text,
            saved_at bigint NOT NULL);
        INSERT INTO todod_head (version, hash) VALUES (0, decode(repeat('00', 32), 'hex')) ON CONFLICT DO NOTHING;
        INSERT INTO todod_meta (key, value) VALUES ('schema_version', '\(schemaVersion)') ON CONFLICT DO NOTHING;
        """

    /// The append function. Every text field travels hex-encoded, so the batch needs no escaping.
    static let createAppendFunction = """
        CREATE OR REPLACE FUNCTION todod_append(base bigint, base_hash bytea, batch json) RETURNS bigint
        LANGUAGE plpgsql AS $$
        DECLARE
            n integer := json_array_length(batch);
            current bigint;
        BEGIN
            IF n = 0 OR (batch -> 0 ->> 'v')::bigint <> base + 1 THEN
                RAISE EXCEPTION 'todod_append: the batch does not start at version %', base + 1;
            END IF;
            UPDATE todod_head SET version = base + n, hash = decode(batch -> (n - 1) ->> 'x', 'hex')
                WHERE version = base AND hash = base_hash;
            IF NOT FOUND THEN
                SELECT version INTO current FROM todod_head;
                RETURN -1 - current;
            END IF;
            INSERT INTO todod_log (version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash)
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
            PERFORM pg_notify('\(channel)', (base + n)::text);
            RETURN base + n;
        END $$;
        """

    static let readEntries = """
        SELECT version, name, payload, accepted_at, peer_uid, peer_pid, client_id, client_sequence, host, hash
        FROM todod_log WHERE version > $1 ORDER BY version LIMIT $2
        """

    static let readHead = "SELECT version, hash FROM todod_head"

    static let readHashAt = "SELECT hash FROM todod_log WHERE version = $1"

    static let readLatestSnapshot = """
        SELECT version, hash, state, ledger FROM todod_snapshots
        WHERE version <= (SELECT version FROM todod_head) ORDER BY version DESC LIMIT 1
        """

    static let writeSnapshot = """
        INSERT INTO todod_snapshots (version, hash, state, ledger, saved_at)
        VALUES ($1, decode($2, 'hex'), convert_from(decode($3, 'hex'), 'UTF8'), convert_from(decode($4, 'hex'), 'UTF8'), $5)
        ON CONFLICT (version) DO NOTHING
        """

    /// Keeps the three newest snapshots.
    static let pruneSnapshots = """
        DELETE FROM todod_snapshots WHERE version < (SELECT min(version) FROM (SELECT version FROM todod_snapshots ORDER BY version DESC LIMIT 3) AS kept)
        """
}
