import Foundation
import Testing

@testable import SyncJournal

/// A statement that ran keeps nothing it was bound with (SQLite would otherwise keep its copy
/// of each bound text until the parameter is bound again: after a snapshot, a copy of the whole
/// encoded state), and a process beside the writer can read which snapshot the journal holds.
@Suite struct SQLiteStatementTests {
    private static func withJournalPath(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.appendingPathComponent(SQLiteJournal.fileName).path)
    }

    /// Runs `body` with a scratch database holding a table `t(x TEXT, y INTEGER)` and a prepared
    /// insert into it.
    private static func withScratchTable(_ body: (SQLiteDatabase, Statement) throws -> Void) throws {
        try withJournalPath { path in
            try SQLiteJournal.create(path)
            let database = try SQLiteDatabase(path: path, create: false)
            try database.execute("CREATE TABLE t(x TEXT, y INTEGER)", operation: "creating")
            let insert = try database.prepare("INSERT INTO t(x, y) VALUES (?1, ?2)", operation: "preparing")
            try body(database, insert)
        }
    }

    @Test func aStatementThatRanHoldsNoBoundText() throws {
        try Self.withScratchTable { database, insert in
            try insert.bind([.text(Array("a long text".utf8)), .integer(7)], operation: "binding")
            #expect(insert.expandedSQL == "INSERT INTO t(x, y) VALUES ('a long text', 7)")
            try insert.run(operation: "inserting")
            #expect(insert.expandedSQL == "INSERT INTO t(x, y) VALUES (NULL, NULL)")

            try insert.bindText(Array("one by one".utf8), at: 1, operation: "binding")
            try insert.run(operation: "inserting")
            #expect(insert.expandedSQL == "INSERT INTO t(x, y) VALUES (NULL, NULL)")
            var rows: [String] = []
            let select = try database.prepare("SELECT x, y IS NULL FROM t", operation: "preparing")
            try select.run(operation: "reading") { row in
                rows.append(String(decoding: row.text(0), as: UTF8.self) + " \(row.integer(1))")
            }
            #expect(rows == ["a long text 0", "one by one 1"])
        }
    }

    @Test func aTextBoundInPlaceIsWrittenAndLetGo() throws {
        try Self.withScratchTable { database, insert in
            let large = Array(String(repeating: "s", count: 100_000).utf8)
            for text in [large, []] {
                try insert.bind([nil, .integer(Int64(text.count))], operation: "binding")
                try insert.run(bindingInPlace: text, at: 1, operation: "inserting")
                #expect(insert.expandedSQL == "INSERT INTO t(x, y) VALUES (NULL, NULL)")
            }
            var rows: [[UInt8]] = []
            let select = try database.prepare("SELECT x FROM t WHERE length(x) = y", operation: "preparing")
            try select.run(operation: "reading") { row in rows.append(row.text(0)) }
            #expect(rows == [large, []])
        }
    }

    @Test func theNewestSnapshotIsReadBesideTheWriter() throws {
        try Self.withJournalPath { path in
            #expect(throws: JournalError.self) { try SQLiteJournal.newestSnapshotVersion(path: path) }
            let journal = try SQLiteJournal(path: path)
            try journal.prepareForWriting()
            #expect(try SQLiteJournal.newestSnapshotVersion(path: path) == nil)
            let entries = (1...3).map {
                JournalEntry(
                    version: $0, name: "add", payload: Array("{}".utf8), acceptedAt: 0, peerUID: nil, peerPID: nil)
            }
            try journal.append(entries, snapshot: Snapshot(version: 2, state: Array("{\"n\":2}".utf8)))
            #expect(try SQLiteJournal.newestSnapshotVersion(path: path) == 2)
            try journal.append([], snapshot: Snapshot(version: 3, state: Array("{\"n\":3}".utf8)))
            #expect(try SQLiteJournal.newestSnapshotVersion(path: path) == 3)
            // The reader changed nothing: the writer goes on, and the journal reads back whole.
            try journal.append(
                [
                    JournalEntry(
                        version: 4, name: "add", payload: Array("{}".utf8), acceptedAt: 0, peerUID: nil, peerPID: nil)
                ],
                snapshot: nil)
            #expect(try journal.lastVersion() == 4)
            #expect(try journal.latestSnapshot()?.state == Array("{\"n\":3}".utf8))
        }
    }

    /// An action's payload and acceptance identifier are bound in place, not copied: every field
    /// of every entry reads back as it was written, with and without the optional ones.
    @Test func everyFieldOfAnActionReadsBackAsWritten() throws {
        try Self.withJournalPath { path in
            let journal = try SQLiteJournal(path: path)
            try journal.prepareForWriting()
            let written = [
                JournalEntry(
                    version: 1, name: "add", payload: Array(#"{"text":"\#(String(repeating: "x", count: 300))"}"#.utf8),
                    acceptedAt: 1_700_000_000_000, peerUID: 1000, peerPID: 42, clientID: "laptop-1",
                    clientSequence: 7, acceptanceIdentifier: AcceptanceIdentifier(high: 0x0123_4567_89ab_cdef, low: 42)),
                JournalEntry(
                    version: 2, name: "complete", payload: Array(#"{"number":1}"#.utf8), acceptedAt: 1_700_000_000_001,
                    peerUID: nil, peerPID: nil),
                JournalEntry(
                    version: 3, name: "edit", payload: Array(#"{"number":1,"text":"y"}"#.utf8), acceptedAt: 0,
                    peerUID: nil, peerPID: nil, acceptanceIdentifier: AcceptanceIdentifier(high: .max, low: 0)),
            ]
            try journal.append(written, snapshot: nil)
            #expect(try journal.entries(after: 0, limit: 10) == written)
        }
    }

    /// A lone action is committed by its insert alone (no `BEGIN` … `COMMIT`): one that fails
    /// leaves nothing behind, no transaction open, and the next commit goes through.
    @Test func aLoneActionThatFailsLeavesTheJournalAsItWas() throws {
        try Self.withJournalPath { path in
            let journal = try SQLiteJournal(path: path)
            try journal.prepareForWriting()
            func entry(_ version: UInt64, _ name: String) -> JournalEntry {
                JournalEntry(
                    version: version, name: name, payload: Array("{}".utf8), acceptedAt: 0, peerUID: nil, peerPID: nil)
            }
            try journal.append([entry(1, "add")], snapshot: nil)
            #expect(throws: JournalError.self) { try journal.append([entry(1, "again")], snapshot: nil) }
            #expect(throws: JournalError.self) {
                try journal.append([entry(2, "add"), entry(1, "again")], snapshot: nil)
            }
            try journal.append([entry(2, "add")], snapshot: nil)
            let read = try journal.entries(after: 0, limit: 10)
            #expect(read.map(\.version) == [1, 2])
            #expect(read.map(\.name) == ["add", "add"], "neither failed commit changed the journal")
        }
    }
}
