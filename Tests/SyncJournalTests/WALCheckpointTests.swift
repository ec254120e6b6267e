import Foundation
import SyncLock
import TestSupport
import Testing

@testable import SyncJournal

/// The WAL's checkpoints run on the checkpointer's thread, never inside a commit: a commit that
/// crossed SQLite's 1000-page line used to copy the WAL into the database file and fsync it
/// before returning (up to 80 ms on the loop thread, figure 3 of docs/PERFORMANCE.md).
@Suite struct WALCheckpointTests {
    /// A payload of about a page, so that each commit adds at least one page to the WAL.
    private static let payload = Array(("{\"text\":\"" + String(repeating: "x", count: 3000) + "\"}").utf8)

    private static func entry(_ version: UInt64) -> JournalEntry {
        JournalEntry(version: version, name: "add", payload: payload, acceptedAt: 0, peerUID: nil, peerPID: nil)
    }

    private static func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.appendingPathComponent(SQLiteJournal.fileName).path)
    }

    /// A new database at `path` in WAL mode, unsynced (fast), with a table `t(x TEXT)`.
    private static func scratchDatabase(at path: String) throws -> SQLiteDatabase {
        try SQLiteJournal.create(path)
        let database = try SQLiteDatabase(path: path, create: false)
        database.waitForLocks()
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;", operation: "configuring")
        try database.execute("CREATE TABLE t(x TEXT)", operation: "creating")
        return database
    }

    /// A scratch database at `path` with its checkpointer started at `pageThreshold`; `body`
    /// gets the writer, the checkpointer (stopped after `body`) and a function that commits so
    /// many rows of `payload`, one per transaction.
    private static func withCheckpointer(
        at path: String, pageThreshold: Int32,
        _ body: (SQLiteDatabase, WALCheckpointer, _ insertRows: (Int) throws -> Void) throws -> Void
    ) throws {
        let writer = try scratchDatabase(at: path)
        let checkpointer = try WALCheckpointer(path: path, pageThreshold: pageThreshold)
        try checkpointer.start(checkpointingFor: writer)
        defer { checkpointer.stop() }
        let insert = try writer.prepare("INSERT INTO t(x) VALUES (?)", operation: "preparing")
        try body(writer, checkpointer) { count in
            for _ in 0..<count {
                try insert.bind([.text(payload)], operation: "binding")
                try insert.run(operation: "inserting")
            }
        }
    }

    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func aConnectionWithAWALHookNeverCheckpointsItself() throws {
        try Self.withDirectory { path in
            let database = try Self.scratchDatabase(at: path)
            let fileSize = Self.size(path)
            var pages: [Int32] = []
            database.onWALCommit { pages.append($0) }
            let insert = try database.prepare("INSERT INTO t(x) VALUES (?)", operation: "preparing")
            for _ in 0..<1500 {
                try insert.bind([.text(Self.payload)], operation: "binding")
                try insert.run(operation: "inserting")
            }
            #expect(pages.count == 1500)
            #expect(pages.last! > 1000)
            // Past the threshold, and the database file holds none of it: nothing checkpointed.
            #expect(Self.size(path) == fileSize)
            try database.checkpointPassively()
            #expect(Self.size(path) > fileSize + 1500 * 3000)
        }
    }

    @Test func theCheckpointerFoldsTheWALIntoTheFileBesideTheCommits() throws {
        try Self.withDirectory { path in
            let count: UInt64 = 2500
            do {
                let journal = try SQLiteJournal(path: path)
                try journal.prepareForWriting()
                let emptySize = Self.size(path)
                for version in 1...count { try journal.append([Self.entry(version)], snapshot: nil) }
                // The checkpointer's thread copies the pages; a generous deadline, no timing.
                let deadline = Date().addingTimeInterval(60)
                while Self.size(path) < emptySize + 1000 * 3000, Date() < deadline { usleep(10_000) }
                #expect(Self.size(path) >= emptySize + 1000 * 3000)
                #expect(journal.checkpointsRun > 0)
                #expect(try journal.lastVersion() == count)
            }
            // Closed: the writer's connection, closing last, folded the rest in and removed the WAL.
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            let reopened = try SQLiteJournal(path: path)
            let entries = try reopened.entries(after: 0, limit: Int(count) + 1)
            #expect(entries.count == Int(count))
            #expect(entries.last?.payload == Self.payload)
        }
    }

    @Test func commitsThatNeverPauseStillKeepTheWALSmall() throws {
        try Self.withDirectory { path in
            try Self.withCheckpointer(at: path, pageThreshold: 10) { _, checkpointer, insertRows in
                // Back to back: the thread's checkpoints rarely find a moment without a commit, and
                // the commit at the backstop copies the rest, so the WAL starts again.
                try insertRows(3000)
                // The WAL file is never shortened: its size is the most it ever held. A frame is a
                // page of 4096 bytes and a header of 24; one commit here adds at most 3 frames, and
                // a checkpoint of the thread's that ends just as the backstop's copy does can keep
                // the WAL from starting again at the commit after it, not at the one after that.
                let frames = (Self.size(path + "-wal") - 32) / (4096 + 24)
                #expect(frames <= Int(checkpointer.backstopPages) + 3 * 3, "the WAL grew to \(frames) frames")
                #expect(frames >= 10)
            }
        }
    }

    /// What the last batch left uncopied is copied once the writer is quiet, so that the WAL
    /// can start again after a pause (the schedule alone would leave it to the backstop).
    @Test func pagesTheLastBatchLeftAreCopiedOnceTheWriterIsQuiet() throws {
        try Self.withDirectory { path in
            try Self.withCheckpointer(at: path, pageThreshold: 100) { writer, checkpointer, insertRows in
                // A reader holds the WAL from the second row on: no checkpoint copies a page past
                // its snapshot, and the WAL cannot start again, until it ends.
                try insertRows(2)
                let reader = try SQLiteDatabase(path: path, create: false)
                reader.waitForLocks()
                try reader.execute("BEGIN; SELECT count(*) FROM t;", operation: "reading")
                // Each row adds about three pages: 40 rows pass the threshold of 100 and ask for one
                // checkpoint, the row after them asks for nothing (the next batch is at 125 pages).
                try insertRows(38)
                let deadline = Date().addingTimeInterval(60)
                while checkpointer.completedCheckpoints.withLock({ $0 }) == 0, Date() < deadline { usleep(1000) }
                try #require(checkpointer.completedCheckpoints.withLock { $0 } > 0)
                try insertRows(1)
                var pageCount: Int64 = 0
                try writer.prepare("PRAGMA page_count", operation: "counting").run(operation: "counting") { row in
                    pageCount = row.integer(0)
                }
                try reader.execute("COMMIT", operation: "reading")
                // Nothing is committed from here: the file grows to hold every page once the
                // thread has copied them all.
                let wholeSize = Int(pageCount) * 4096
                while Self.size(path) < wholeSize, Date() < deadline { usleep(1000) }
                #expect(Self.size(path) == wholeSize, "the pages after the batch stayed in the WAL")
            }
        }
    }

    /// A full disk: once the database file cannot grow, checkpoints fail, which is reported
    /// once however many fail; and the first to work once space is freed reports it.
    @Test(.enabled(if: TmpfsMount.isPermitted, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"))
    func checkpointsFailingOnAFullDiskAreReportedOnceAndSoIsTheirRecovery() throws {
        let disk = try TmpfsMount(bytes: 8 << 20)
        defer { disk.unmount() }
        let path = disk.path + "/" + SQLiteJournal.fileName
        let reports = Locked<[CheckpointReport]>([])
        let writer = try Self.scratchDatabase(at: path)
        let checkpointer = try WALCheckpointer(path: path, pageThreshold: 40) { report in
            reports.withLock { $0.append(report) }
        }
        try checkpointer.start(checkpointingFor: writer)
        defer { checkpointer.stop() }
        let insert = try writer.prepare("INSERT INTO t(x) VALUES (?)", operation: "preparing")
        func insertRow() -> Bool {
            do {
                try insert.bind([.text(Self.payload)], operation: "binding")
                try insert.run(operation: "inserting")
                return true
            } catch {
                return false
            }
        }
        // The WAL goes round at least once (its backstop is 400 pages): its file has room for
        // the rows to come, while each of them needs a new page of the database file.
        for _ in 0..<600 { #expect(insertRow()) }
        // Everything copied first, so that a checkpoint the last rows asked for finds nothing
        // to copy once the disk is full (a passive checkpoint beside the thread's may be busy).
        let drained = Date().addingTimeInterval(60)
        while !((try? writer.checkpointPassively()) ?? false), Date() < drained { usleep(1_000) }
        #expect(reports.withLock { $0 }.isEmpty)

        _ = try disk.fill("filler")
        // Rows into the WAL's room, a few milliseconds apart so that the thread's checkpoints
        // (one per 10 pages past 40) come between them, until two have failed. A generous
        // deadline, no timing: on a busy machine the room (400 pages) lasts longer than needed.
        let deadline = Date().addingTimeInterval(60)
        var rowsOnAFullDisk = 0
        while checkpointer.failedCheckpoints.withLock({ $0 }) < 2, Date() < deadline {
            if insertRow() { rowsOnAFullDisk += 1 }
            usleep(5_000)
        }
        #expect(rowsOnAFullDisk > 0, "no commit went into the WAL's room")
        #expect(checkpointer.failedCheckpoints.withLock { $0 } >= 2, "one failure only: nothing shown")
        let failing = reports.withLock { $0 }
        #expect(failing.count == 1, "\(failing)")
        guard case .failing(let error)? = failing.first else {
            Issue.record("no failure reported: \(failing)")
            return
        }
        #expect(error.description.contains("full"), "\(error)")

        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        while reports.withLock({ $0.count < 2 }), Date() < deadline.addingTimeInterval(60) {
            _ = insertRow()
            usleep(10_000)
        }
        let completedBefore = checkpointer.completedCheckpoints.withLock { $0 }
        while checkpointer.completedCheckpoints.withLock({ $0 }) < completedBefore + 2,
            Date() < deadline.addingTimeInterval(120)
        {
            _ = insertRow()
            usleep(10_000)
        }
        #expect(reports.withLock { $0 }.dropFirst() == [.recovered], "told once, however many work after")
    }
}
