import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// A journal the daemon cannot trust stops the start with a message naming the file and the
/// problem, and the file is left exactly as it was.
@Suite(.blocking) struct DamagedJournalTests {
    /// A stopped daemon whose journal holds 300 items across many pages.
    private func stoppedDaemonWithData() throws -> DaemonHarness {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        for n in 0..<300 {
            _ = try client.dispatchAndWait("add", ["text": "item \(n) " + String(repeating: "x", count: 200)])
        }
        #expect(try daemon.stop() == 0)
        return daemon
    }

    /// Starts todod on the damaged journal; returns its stderr after checking it refused and
    /// left the file untouched.
    private func refusedStart(_ daemon: DaemonHarness) throws -> String {
        let path = JournalFile.path(daemon)
        let before = try JournalFile.contents(path)
        let attempt = try ChildProcess(
            Binaries.path("todod"), ["--socket", daemon.socketPath, "--data-dir", daemon.dataDirectory],
            outputDirectory: daemon.directory)
        #expect(try attempt.waitForExit() == 1)
        #expect(try JournalFile.contents(path) == before, "the journal was changed")
        #expect(attempt.standardError.contains(path))
        #expect(!DaemonHarness.isAnswering(daemon.socketPath))
        return attempt.standardError
    }

    @Test func garbageOverTheHeaderIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: JournalFile.path(daemon)))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try handle.close()
        #expect(try refusedStart(daemon).contains("is damaged: file is not a database"))
    }

    @Test func garbageInTheMiddleIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        let path = JournalFile.path(daemon)
        let size = try JournalFile.contents(path).count
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(size / 2))
        try handle.write(contentsOf: Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        try handle.close()
        #expect(try refusedStart(daemon).contains("is damaged"))
    }

    @Test func aTruncatedFileIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        let path = JournalFile.path(daemon)
        let size = try JournalFile.contents(path).count
        #expect(truncate(path, off_t(size / 2)) == 0)
        #expect(try refusedStart(daemon).contains("is damaged"))
    }

    @Test func anEmptyFileIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        #expect(truncate(JournalFile.path(daemon), 0) == 0)
        #expect(try refusedStart(daemon).contains("the file is empty"))
    }

    @Test func aNewerSchemaIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute(
            "UPDATE meta SET value = '99' WHERE key = 'schema_version'", on: JournalFile.path(daemon))
        #expect(try refusedStart(daemon).contains("schema version 99"))
    }

    @Test func anActionThatNoLongerDecodesIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute(
            #"DELETE FROM snapshots; UPDATE actions SET payload = '{"bogus":1}' WHERE version = 7"#,
            on: JournalFile.path(daemon))
        let message = try refusedStart(daemon)
        #expect(message.contains(#"the "add" action at version 7 no longer decodes"#))
    }

    @Test func aMissingVersionIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute(
            "DELETE FROM snapshots; DELETE FROM actions WHERE version = 150", on: JournalFile.path(daemon))
        #expect(try refusedStart(daemon).contains("version 150 is missing"))
    }

    @Test func aRefusedStartAfterACrashLeavesTheJournalAndItsWALUntouched() throws {
        let daemon = try DaemonHarness()
        for text in ["a", "b", "c", "d", "e"] { #expect(try daemon.todo("add", text).status == 0) }
        try daemon.crash()
        let path = JournalFile.path(daemon)
        try JournalFile.execute(
            "INSERT INTO actions(version, name, payload, accepted_at) VALUES (6, 'fly', '{}', 0)", on: path,
            keepingWAL: true)
        let wal = try JournalFile.contents(path + "-wal")
        #expect(!wal.isEmpty, "the crash left a WAL")
        #expect(try refusedStart(daemon).contains(#"the action "fly" at version 6 is unknown"#))
        #expect(try JournalFile.contents(path + "-wal") == wal, "the WAL was changed or folded into the file")
    }

    @Test func aSnapshotLedgerThatDoesNotDecodeIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute(
            #"UPDATE snapshots SET ledger = '{"clients":[{"floor":0,"id":"a","recent":[2,9,1,10]}]}'"#,
            on: JournalFile.path(daemon))
        let message = try refusedStart(daemon)
        #expect(message.contains("the dispatch ledger of the snapshot at version 300 does not decode"))
        #expect(message.contains(#"client id "a" has sequences or versions that do not increase"#))
    }

    @Test func aClientIDWithoutASequenceIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute(
            "DELETE FROM snapshots; UPDATE actions SET client_id = 'x' WHERE version = 7", on: JournalFile.path(daemon))
        #expect(
            try refusedStart(daemon).contains("the action at version 7 has a client id or a client sequence, not both"))
    }

    @Test func aNegativeClientSequenceIsRefused() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute(
            "DELETE FROM snapshots; UPDATE actions SET client_id = 'x', client_sequence = -4 WHERE version = 7",
            on: JournalFile.path(daemon))
        #expect(try refusedStart(daemon).contains("a negative client sequence (-4)"))
    }

    @Test func aNegativeVersionIsRefusedNotACrash() throws {
        let daemon = try stoppedDaemonWithData()
        try JournalFile.execute("UPDATE snapshots SET version = -1", on: JournalFile.path(daemon))
        #expect(try refusedStart(daemon).contains("a negative version (-1)"))
    }
}
