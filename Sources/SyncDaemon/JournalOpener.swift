import SyncJournal

/// Opens the journal a configuration names: the daemon's own SQLite file in its data
/// directory, or the log shared with other daemons in PostgreSQL.
enum JournalOpener {
    /// The file in the data directory where a daemon on a shared log remembers its head.
    static let sharedHeadFileName = "shared-log-head"

    /// The journal for `configuration`, in `directory`, ready to be read by recovery.
    static func open(_ configuration: DaemonConfiguration, in directory: DataDirectory) throws(DaemonError) -> any Journal {
        do {
            if let conninfo = configuration.postgres {
                return try PostgresJournal(
                    conninfo: conninfo, host: configuration.hostName, applicationName: configuration.serverName,
                    headFile: directory.file(sharedHeadFileName))
            }
            return try SQLiteJournal(path: directory.file(SQLiteJournal.fileName))
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
            logger.log(.info, "migrated \(file.path) from schema version \(file.openedSchemaVersion) to \(SQLiteJournal.schemaVersion)")
        }
    }
}
