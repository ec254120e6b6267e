import Glibc
import SyncJournal

/// Opens the journal a configuration names: the daemon's own SQLite file in its data
/// directory, or the log shared with other daemons in PostgreSQL.
enum JournalOpener {
    /// The file in the data directory where a daemon on a shared log remembers its head.
    static let sharedHeadFileName = "shared-log-head"

    /// How long a daemon starting on a shared log waits for its database to answer (it may be
    /// starting too), in seconds.
    static var databaseWaitSeconds: Int { 10 }

    /// The journal for `configuration`, in `directory`, ready to be read by recovery. It
    /// keeps a snapshot every half replay limit, so that every past version written from now
    /// on is within reach of `get … at` when snapshots are saved at least that often (a
    /// warning says so when they are not).
    static func open(_ configuration: DaemonConfiguration, in directory: DataDirectory, logger: Logger)
        throws(DaemonError) -> any Journal
    {
        let journal = try openJournal(configuration, in: directory, logger: logger)
        let spacing = configuration.snapshotSpacing
        journal.snapshotSpacing = spacing
        if configuration.snapshotInterval > spacing {
            logger.log(
                .warning,
                "snapshots every \(configuration.snapshotInterval) versions are further apart than half the replay limit (\(configuration.maximumReplayedActions)): some past versions will be out of reach of get at; use --snapshot-interval \(spacing) or less"
            )
        }
        return journal
    }

    private static func openJournal(_ configuration: DaemonConfiguration, in directory: DataDirectory, logger: Logger)
        throws(DaemonError) -> any Journal
    {
        do {
            guard let conninfo = configuration.postgres else {
                return try SQLiteJournal(path: directory.file(SQLiteJournal.fileName)) { report in
                    switch report {
                    case .failing(let error):
                        logger.log(
                            .error, "checkpoints of the WAL fail; it keeps every commit until one works: \(error)")
                    case .recovered:
                        logger.log(.info, "checkpoints of the WAL work again")
                    }
                }
            }
            var waited = 0
            while true {
                do {
                    let journal = try PostgresJournal(
                        conninfo: conninfo, schema: SharedLogSchema(daemonName: configuration.identity.daemonName),
                        host: configuration.hostName, applicationName: configuration.serverName,
                        headFile: directory.file(sharedHeadFileName))
                    if let old = journal.migratedFrom {
                        logger.log(
                            .info,
                            "migrated the shared log's schema in \(journal.location) from version \(old) to \(SharedLogSchema.schemaVersion)"
                        )
                    }
                    return journal
                } catch .storage(let location, "connecting", let reason) where waited < databaseWaitSeconds {
                    if waited == 0 {
                        logger.log(
                            .warning, "waiting up to \(databaseWaitSeconds) s for \(location) to answer (\(reason))")
                    }
                    sleep(1)
                    waited += 1
                }
            }
        } catch {
            throw .journal(error)
        }
    }

    /// Makes `journal` ready for appends once recovery has read it, logging a migration.
    static func prepareForWriting(_ journal: any Journal, logger: Logger) throws(DaemonError) {
        do {
            try journal.prepareForWriting()
        } catch {
            throw .journal(error)
        }
        if let file = journal as? SQLiteJournal, file.openedSchemaVersion < SQLiteJournal.schemaVersion {
            logger.log(
                .info,
                "migrated \(file.path) from schema version \(file.openedSchemaVersion) to \(SQLiteJournal.schemaVersion)"
            )
        }
    }
}
