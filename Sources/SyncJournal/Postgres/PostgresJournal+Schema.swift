/// Making the shared log's schema, and checking the server keeps commits durable: what a
/// journal checks once, as it connects.
extension PostgresJournal {
    /// Creates or migrates `schema` on `connection` (see `createSchemaIfNeeded(_:)`); returns
    /// the version migrated from, `nil` when the schema was new or current.
    static func createSchemaIfNeeded(
        _ schema: SharedLogSchema, on connection: PostgresConnection, location: String
    ) throws(JournalError) -> Int? {
        do {
            try connection.execute("BEGIN", timeoutMilliseconds: 5_000)
            try connection.execute(
                "SELECT pg_advisory_xact_lock($1)", [String(schema.schemaLockKey)], timeoutMilliseconds: 30_000)
            let exists = try connection.execute(schema.tablesExist, timeoutMilliseconds: 5_000).first?[0] == "t"
            if !exists {
                try connection.execute(schema.createTables, timeoutMilliseconds: 30_000)
                try connection.execute(schema.createAppendFunction, timeoutMilliseconds: 30_000)
            }
            let found = try connection.execute(schema.readSchemaVersion, timeoutMilliseconds: 5_000).first?[0]
            guard let version = found.flatMap(Int.init), (1...SharedLogSchema.schemaVersion).contains(version) else {
                try connection.execute("ROLLBACK", timeoutMilliseconds: 5_000)
                throw JournalError.unknownSchema(
                    path: location, found: found ?? "none", supported: SharedLogSchema.schemaVersion)
            }
            for migration in schema.migrations where migration.version > version {
                try connection.execute(migration.sql, timeoutMilliseconds: 30_000)
            }
            try connection.execute("COMMIT", timeoutMilliseconds: 5_000)
            return exists && version < SharedLogSchema.schemaVersion ? version : nil
        } catch let error as JournalError {
            throw error
        } catch {
            let advice =
                "\(error)".contains("permission denied")
                ? " (run `--prepare-schema` once as the role that owns the schema: docs/SCALE_OUT.md, \"Roles\")" : ""
            throw .cannotOpen(path: location, reason: "creating the schema failed: \(error)\(advice)")
        }
    }

    /// Creates or migrates the shared log's schema in the database of `conninfo` and returns
    /// the version migrated from (`nil`: new or current), for an operator who runs it as the
    /// role owning the schema, so that the daemons' role needs no right to change it.
    public static func prepareSchema(conninfo: String, schema: SharedLogSchema, applicationName: String)
        throws(JournalError) -> Int?
    {
        let location = try PostgresTarget.parse(conninfo).get().description
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(
                conninfo, applicationName: applicationName, timeoutMilliseconds: 10_000)
        } catch {
            throw .cannotOpen(path: location, reason: error.description)
        }
        return try createSchemaIfNeeded(schema, on: connection, location: location)
    }

    /// Refuses a server that does not flush commits to disk: an acknowledged action could be
    /// lost in its crash. (`synchronous_commit` is set per session, so its setting cannot hurt.)
    func checkDurability(_ connection: PostgresConnection) throws(JournalError) {
        let fsync: String?
        do {
            fsync = try connection.execute("SHOW fsync", timeoutMilliseconds: 5_000).first?[0]
        } catch {
            throw .cannotOpen(path: location, reason: "reading the server's settings failed: \(error)")
        }
        if fsync == "off" {
            throw .cannotOpen(
                path: location,
                reason:
                    "the server runs with fsync=off, so a commit it acknowledges can be lost in a crash; turn fsync on")
        }
    }
}
