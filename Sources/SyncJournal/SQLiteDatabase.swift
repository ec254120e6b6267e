import CSQLite

/// A thin owner of one `sqlite3` connection and its prepared statements.
/// Not thread-safe: used by one thread at a time (see `Journal`).
final class SQLiteDatabase {
    let path: String
    private let handle: OpaquePointer

    /// Opens `path`; `create` allows creating a missing file, `readOnly` opens a connection
    /// that cannot write (it still reads a WAL that another connection writes).
    init(path: String, create: Bool, readOnly: Bool = false) throws(JournalError) {
        self.path = path
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close(handle)
            throw .cannotOpen(path: path, reason: reason)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        // Until the journal is trusted (`allowCheckpointOnClose`), closing must not fold the
        // WAL into the database file: a refused start leaves the files as they were.
        csqlite_set_checkpoint_on_close(handle, 0)
    }

    /// How long a statement waits for a lock another connection holds before it fails with
    /// "database is locked": a journal being written has two connections, the writer's and
    /// the checkpointer's, whose locks on the WAL's index can meet for moments (under
    /// ThreadSanitizer a commit beside a checkpoint failed so once without this).
    static let lockWaitMilliseconds: Int32 = 10_000

    /// Makes statements wait up to `lockWaitMilliseconds` for another connection's lock.
    func waitForLocks() {
        sqlite3_busy_timeout(handle, Self.lockWaitMilliseconds)
    }

    /// Lets closing the connection checkpoint the WAL again (once the journal is trusted).
    func allowCheckpointOnClose() {
        csqlite_set_checkpoint_on_close(handle, 1)
    }

    deinit {
        if let hook = walHook { Unmanaged.passUnretained(hook).release() }
        sqlite3_close_v2(handle)
    }

    /// What hears of each commit to the WAL, if anything (see `onWALCommit`).
    private var walHook: WALHook?

    /// Calls `body` with the number of pages in the WAL after each commit, on the committing
    /// thread, instead of checkpointing then: SQLite's automatic checkpoints are off from here.
    func onWALCommit(_ body: @escaping (Int32) -> Void) {
        if let hook = walHook { Unmanaged.passUnretained(hook).release() }
        let hook = WALHook(body)
        walHook = hook
        sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                Unmanaged<WALHook>.fromOpaque(context!).takeUnretainedValue().body(pages)
                return SQLITE_OK
            }, Unmanaged.passRetained(hook).toOpaque())
    }

    /// Copies what the WAL holds into the database file as far as no reader needs it, without
    /// waiting for any lock (a writer may commit meanwhile); returns whether every page of the
    /// WAL is in the file now (then the next commit starts the WAL again from its beginning).
    /// A checkpoint that could not start (`SQLITE_BUSY`: another connection checkpoints, or a
    /// commit was updating the WAL's index) copied nothing, and is no failure.
    @discardableResult
    func checkpointPassively() throws(JournalError) -> Bool {
        var walPages: Int32 = 0
        var copiedPages: Int32 = 0
        let result = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &walPages, &copiedPages)
        if result == SQLITE_BUSY { return false }
        // Any error sets both counts to -1; without one, -1 means the connection has no WAL.
        guard result == SQLITE_OK else { throw error(result, "checkpointing the WAL") }
        guard walPages >= 0 else {
            throw .storage(path: path, operation: "checkpointing the WAL", reason: "the connection is not in WAL mode")
        }
        return copiedPages == walPages
    }

    /// Runs SQL that returns no rows.
    func execute(_ sql: String, operation: String) throws(JournalError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, operation) }
    }

    /// Prepares a statement.
    func prepare(_ sql: String, operation: String) throws(JournalError) -> Statement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result, operation) }
        return Statement(database: self, handle: statement)
    }

    /// SQLITE_IOERR_FSYNC and SQLITE_IOERR_DIR_FSYNC (macros Swift does not import).
    private static let fsyncFailed = SQLITE_IOERR | (4 << 8)
    private static let directoryFsyncFailed = SQLITE_IOERR | (5 << 8)

    /// Whether a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The journal error for SQLite result `code` during `operation`.
    func error(_ code: Int32, _ operation: String) -> JournalError {
        let message = String(cString: sqlite3_errmsg(handle))
        let meaning = String(cString: sqlite3_errstr(code))
        let reason = message == meaning ? message : "\(message) (\(meaning))"
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .corrupt(path: path, reason: reason)
        case SQLITE_IOERR where code == Self.fsyncFailed || code == Self.directoryFsyncFailed:
            return .uncertain(path: path, reason: reason)
        default:
            return .storage(path: path, operation: operation, reason: reason)
        }
    }
}

/// The closure a connection's WAL hook calls, carried through SQLite's context pointer.
private final class WALHook {
    let body: (Int32) -> Void

    init(_ body: @escaping (Int32) -> Void) {
        self.body = body
    }
}

/// One prepared statement, reset after each use.
final class Statement {
    private unowned let database: SQLiteDatabase
    private let handle: OpaquePointer

    fileprivate init(database: SQLiteDatabase, handle: OpaquePointer) {
        self.database = database
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to the parameters 1, 2, … (`nil` binds NULL). `operation` names what
    /// failed in the error; it is only made then.
    func bind(_ values: [SQLiteValue?], operation: @autoclosure () -> String) throws(JournalError) {
        clearBindings()
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case nil: try bindNull(index, operation: operation())
            case .integer(let number): try bind(number, at: index, operation: operation())
            case .text(let bytes): try bindText(bytes, at: index, operation: operation())
            }
        }
    }

    /// Resets the statement and sets every parameter to NULL (and lets go of SQLite's copies of
    /// bound texts). `run` ends with it, so a statement that ran is ready to be bound one
    /// parameter at a time (the hot path's binds, which build no array of values).
    func clearBindings() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds NULL to parameter `index`.
    func bindNull(_ index: Int32, operation: @autoclosure () -> String) throws(JournalError) {
        let result = sqlite3_bind_null(handle, index)
        guard result == SQLITE_OK else { throw database.error(result, operation()) }
    }

    /// Binds `number` to parameter `index`.
    func bind(_ number: Int64, at index: Int32, operation: @autoclosure () -> String) throws(JournalError) {
        let result = sqlite3_bind_int64(handle, index, number)
        guard result == SQLITE_OK else { throw database.error(result, operation()) }
    }

    /// Binds the UTF-8 text `bytes` to parameter `index` (SQLite copies them).
    func bindText(_ bytes: some Collection<UInt8>, at index: Int32, operation: @autoclosure () -> String)
        throws(JournalError)
    {
        func bindBuffer(_ buffer: UnsafeBufferPointer<UInt8>) -> Int32 {
            guard let start = buffer.baseAddress, !buffer.isEmpty else {
                // Empty text, from a pointer that is not NULL (NULL would bind NULL).
                return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
            return sqlite3_bind_text(
                handle, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                csqlite_transient())
        }
        let result =
            bytes.withContiguousStorageIfAvailable(bindBuffer) ?? Array(bytes).withUnsafeBufferPointer(bindBuffer)
        guard result == SQLITE_OK else { throw database.error(result, operation()) }
    }

    /// Binds the UTF-8 text in `buffer` to parameter `index` without SQLite copying it: the
    /// bytes must stay as they are until the statement has run (`run` lets go of them), so the
    /// caller binds and runs within the buffer's scope.
    func bindText(inPlace buffer: UnsafeBufferPointer<UInt8>, at index: Int32, operation: @autoclosure () -> String)
        throws(JournalError)
    {
        guard let start = buffer.baseAddress, !buffer.isEmpty else {
            return try bindText(buffer, at: index, operation: operation())
        }
        // No destructor: SQLITE_STATIC, the bytes stay the caller's.
        let result = sqlite3_bind_text(
            handle, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
        guard result == SQLITE_OK else { throw database.error(result, operation()) }
    }

    /// Runs the statement to completion, calling `row` for each result row, then resets it and
    /// lets go of its bindings: SQLite keeps a copy of each bound text until the parameter is
    /// bound again, and a snapshot's text is the whole encoded state. `operation` names what
    /// failed in the error; it is only made then.
    func run(operation: @autoclosure () -> String, row: (Statement) throws(JournalError) -> Void = { _ in })
        throws(JournalError)
    {
        defer { clearBindings() }
        while true {
            let result = sqlite3_step(handle)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw database.error(result, operation()) }
            try row(self)
        }
    }

    /// Binds the UTF-8 text `bytes` to parameter `index` without SQLite copying them, then runs
    /// the statement as `run` does (which lets go of the binding before `bytes` may go): for a
    /// text as large as a snapshot, whose copy would double what the write holds.
    func run(bindingInPlace bytes: [UInt8], at index: Int32, operation: @autoclosure () -> String)
        throws(JournalError)
    {
        try bytes.withUnsafeBufferPointer { buffer throws(JournalError) in
            do throws(JournalError) {
                try bindText(inPlace: buffer, at: index, operation: operation())
            } catch {
                clearBindings()
                throw error
            }
            try run(operation: operation())
        }
    }

    /// The statement's SQL with the values bound now in place of its parameters (SQLite's
    /// expanded SQL; `NULL` where nothing is bound).
    var expandedSQL: String? {
        guard let text = sqlite3_expanded_sql(handle) else { return nil }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }

    /// The integer in column `index` of the current row.
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The version number in column `index` of the current row; a negative one means the file
    /// was tampered with.
    func version(_ index: Int32) throws(JournalError) -> UInt64 {
        try unsigned(index, "version")
    }

    /// The count or number (`what`: "version", "client sequence") in column `index` of the
    /// current row; a negative one means the file was tampered with.
    func unsigned(_ index: Int32, _ what: String) throws(JournalError) -> UInt64 {
        guard let number = UInt64(exactly: integer(index)) else {
            throw .corrupt(path: database.path, reason: "a negative \(what) (\(integer(index)))")
        }
        return number
    }

    /// Whether column `index` of the current row is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The bytes of the text in column `index` of the current row.
    func text(_ index: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_text(handle, index) else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, index))))
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    /// An integer.
    case integer(Int64)
    /// UTF-8 text.
    case text([UInt8])
}
