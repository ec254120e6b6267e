import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// Journal schema 1 (before exactly-once dispatch) is read as it is, migrated to schema 2 only
/// once recovery succeeded, and keeps every action; a schema from the future is refused and left
/// untouched.
@Suite(.blocking) struct JournalMigrationTests {
    /// A stopped daemon whose journal is schema 1 with a snapshot at version 3 and three more
    /// actions after it; and `todo list --json` as it was.
    private func daemonWithSchema1Journal() throws -> (daemon: DaemonHarness, list: String) {
        let daemon = try DaemonHarness()
        for text in ["one", "two", "three"] { #expect(try daemon.todo("add", text).status == 0) }
        #expect(try daemon.stop() == 0)
        try daemon.start()
        for text in ["four", "five"] { #expect(try daemon.todo("add", text).status == 0) }
        #expect(try daemon.todo("done", "2").status == 0)
        let list = try daemon.todo("list", "--json").output
        try daemon.crash()
        try JournalFile.rewriteAsSchema1(daemon)
        let path = JournalFile.path(daemon)
        #expect(try JournalFile.query("SELECT value FROM meta", on: path) == ["1"])
        #expect(try JournalFile.query("SELECT version FROM snapshots", on: path) == ["3"])
        #expect(try JournalFile.query("SELECT COUNT(*) FROM actions", on: path) == ["6"])
        return (daemon, list)
    }

    @Test func aSchema1JournalIsMigratedAndKeepsEveryAction() throws {
        let (daemon, list) = try daemonWithSchema1Journal()
        let path = JournalFile.path(daemon)
        let payloads = try JournalFile.query("SELECT payload FROM actions ORDER BY version", on: path)
        try daemon.start()
        let log = daemon.process.standardError
        #expect(log.contains("migrated \(path) from schema version 1 to 3"))
        #expect(
            log.contains(
                "recovered version 6 from \(path) (snapshot at 3, 3 actions replayed, 0 client ids in the dispatch ledger)"
            ))
        #expect(try daemon.todo("list", "--json").output == list)
        #expect(try JournalFile.query("SELECT value FROM meta WHERE key = 'schema_version'", on: path) == ["3"])
        #expect(
            try JournalFile.query("SELECT name FROM pragma_table_info('actions')", on: path).suffix(3) == [
                "client_id", "client_sequence", "acceptance_id",
            ])
        #expect(try JournalFile.query("SELECT name FROM pragma_table_info('snapshots')", on: path).last == "ledger")
        #expect(try JournalFile.query("SELECT payload FROM actions ORDER BY version", on: path) == payloads)

        // The migrated journal keeps numbered dispatches across a crash.
        let client = try WireClient(path: daemon.socketPath)
        #expect(try client.hello(clientID: "after-migration")["lastSequence"] as? Int == 0)
        #expect(try client.reply(to: client.dispatch("add", ["text": "six"], sequence: 1)).version == 7)
        try daemon.crash()
        try daemon.start()
        #expect(!daemon.process.standardError.contains("migrated"), "the second start finds schema 3")
        let again = try WireClient(path: daemon.socketPath)
        #expect(try again.hello(clientID: "after-migration")["lastSequence"] as? Int == 1)
        #expect(try again.reply(to: again.dispatch("add", ["text": "six"], sequence: 1)).version == 7)
        #expect(try daemon.todo("list").output.hasSuffix("6 [ ] six\n5 open, 1 done\n"))
    }

    @Test func aRefusedStartLeavesASchema1JournalUnmigrated() throws {
        let (daemon, _) = try daemonWithSchema1Journal()
        let path = JournalFile.path(daemon)
        try JournalFile.execute("INSERT INTO actions VALUES (7, 'fly', '{}', 0, NULL, NULL)", on: path)
        let before = try JournalFile.contents(path)
        let attempt = try ChildProcess(
            Binaries.path("todod"), ["--socket", daemon.socketPath, "--data-dir", daemon.dataDirectory],
            outputDirectory: daemon.directory)
        #expect(try attempt.waitForExit() == 1)
        #expect(attempt.standardError.contains(#"the action "fly" at version 7 is unknown"#))
        #expect(try JournalFile.contents(path) == before, "the journal was changed")
        #expect(try JournalFile.query("SELECT value FROM meta", on: path) == ["1"])
    }

    /// A journal the previous release wrote (schema 2, every action kept as accepted: adds,
    /// completes, an edit and its undo, a remove, a reopen, a clear and an import, the daemon
    /// then killed, so no snapshot) replays to the same items, is migrated to schema 3, and
    /// keeps new actions as they were received, with their acceptance identifier; an undo, whose
    /// acceptance reads the state, is kept as accepted.
    @Test func aSchema2JournalOfAcceptedActionsReplaysAndNewActionsAreKeptAsReceived() throws {
        let daemon = try DaemonHarness()
        try daemon.crash()
        let path = JournalFile.path(daemon)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let fixtures = packageRoot.appendingPathComponent("Tests/JournalIntegrationTests/Durability/Fixtures")
        try JournalFile.execute(
            try String(contentsOf: fixtures.appendingPathComponent("journal-schema-2.sql"), encoding: .utf8),
            on: path, creating: true)
        let exported = try String(
            contentsOf: fixtures.appendingPathComponent("journal-schema-2.export.json"), encoding: .utf8)

        try daemon.start()
        let log = daemon.process.standardError
        #expect(log.contains("migrated \(path) from schema version 2 to 3"), "\(log)")
        #expect(log.contains("recovered version 13 from \(path)") && log.contains("13 actions replayed"), "\(log)")
        #expect(try daemon.todo("export", "--json").output == exported)
        #expect(try JournalFile.query("SELECT COUNT(*) FROM actions WHERE acceptance_id IS NULL", on: path) == ["13"])

        #expect(try daemon.todo("add", "kept as received").status == 0)
        #expect(try daemon.todo("edit", "10", "edited as received").status == 0)
        #expect(try daemon.todo("undo").status == 0)
        let rows = try JournalFile.query(
            "SELECT name || ' ' || payload || ' ' || (acceptance_id IS NOT NULL) FROM actions WHERE version > 13 ORDER BY version",
            on: path)
        #expect(rows.count == 3)
        #expect(rows.first == #"add {"text":"kept as received"} 1"#)
        #expect(rows.dropFirst().first == #"edit {"number":10,"text":"edited as received"} 1"#)
        #expect(rows.last?.hasPrefix(#"undo {"reverts":"#) == true && rows.last?.hasSuffix(" 0") == true, "\(rows)")
        let identifier = try JournalFile.query("SELECT acceptance_id FROM actions WHERE version = 14", on: path)
        #expect(identifier.first?.count == 36)

        // The history shows each action as it was applied, its id and time fixed at acceptance.
        let history = try daemon.todo("log", "-n", "3", "--json").output
        let added = try #require(
            (try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [[String: Any]])?.first)
        let payload = try #require(added["payload"] as? [String: Any])
        #expect(payload["text"] as? String == "kept as received")
        #expect((payload["id"] as? String)?.lowercased() == identifier.first, "\(history)")
        #expect(payload["createdAt"] as? Int == added["acceptedAt"] as? Int)

        // Replayed after a crash, old and new entries give the same items.
        let before = try daemon.todo("export", "--json").output
        try daemon.crash()
        try daemon.start()
        #expect(try daemon.todo("export", "--json").output == before)
        #expect(try daemon.todo("list").output.contains("10 [ ] kept as received"))
    }

    @Test func aSchema4JournalIsRefusedAndLeftAsItIs() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.todo("add", "kept").status == 0)
        #expect(try daemon.stop() == 0)
        let path = JournalFile.path(daemon)
        try JournalFile.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'", on: path)
        let before = try JournalFile.contents(path)
        let attempt = try ChildProcess(
            Binaries.path("todod"), ["--socket", daemon.socketPath, "--data-dir", daemon.dataDirectory],
            outputDirectory: daemon.directory)
        #expect(try attempt.waitForExit() == 1)
        #expect(
            attempt.standardError.contains(
                "journal \(path) has schema version 4; this daemon reads schema versions 1 to 3"))
        #expect(try JournalFile.contents(path) == before, "the journal was changed")
        let wal =
            FileManager.default.fileExists(atPath: path + "-wal") ? try JournalFile.contents(path + "-wal") : Data()
        #expect(wal.isEmpty, "nothing was written to the WAL")
    }
}
