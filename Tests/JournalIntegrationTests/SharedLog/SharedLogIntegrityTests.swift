import Foundation
import Glibc
import SyncJournal
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// A shared log changed under running daemons stops every one of them, loudly, while reads go
/// on; the database refuses such changes in the first place (triggers, and a daemons' role
/// that may only read and append); and a log written by an earlier schema (1 or 2) is migrated once.
/// Not serialized: each test has its own server and daemons, and most of each is waiting for
/// a verification pass (one for 30 s), so in a row they were the plain run's longest chain.
@Suite(
    .blocking(.long),
    .enabled(if: PrivatePostgres.isAvailable, Comment(rawValue: PrivatePostgres.skipReason)))
struct SharedLogIntegrityTests {
    /// How the log is changed under the daemons, as an attacker with the owner's rights would.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case payloadRewritten = "a payload rewritten, the hash left alone"
        case hashesRecomputed = "a payload rewritten, every hash from there recomputed"
        case rowDeleted = "a row deleted"
        case rowInserted = "a row inserted beyond the head"

        var testDescription: String { rawValue }

        /// What an ordinary session trying the same change is told by the triggers.
        var refusal: String {
            switch self {
            case .rowInserted: "todod_log takes rows only through todod_append"
            case .rowDeleted: "todod_log is append-only: DELETE refused"
            case .payloadRewritten, .hashesRecomputed: "todod_log is append-only: UPDATE refused"
            }
        }
    }

    @Test(arguments: Change.allCases)
    func aLogChangedUnderRunningDaemonsStopsEveryOneOfThem(change: Change) throws {
        let cluster = try SharedLogCluster(daemons: 3, arguments: ["--verify-interval", "1"])
        defer { cluster.close() }
        for (index, daemon) in cluster.daemons.enumerated() {
            try SharedLogFailureTests.add((1...10).map { "item \(index) \($0)" }, on: daemon)
        }
        let before = try cluster.agreedList(atLeast: 30)
        let sql = try Self.sql(for: change, cluster.postgres)
        let refusal = Self.lastError(of: sql, cluster.postgres)
        #expect(refusal.contains(change.refusal), "the triggers refuse it: \(refusal)")
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_log") == "30", "nothing changed")

        try SharedLogFailureTests.tamper(cluster.postgres, sql)
        let changed = NumberedWriter.now()
        // Noticed without a write: by the background verification, and through the refusal it records.
        for daemon in cluster.daemons {
            try eventually(timeout: 60, "a daemon did not notice the change") {
                let log = try WireClient(path: daemon.socketPath).hello()["log"] as? [String: Any]
                return log?["refusingWrites"] != nil ? true : nil
            }
        }
        let noticed = NumberedWriter.now() - changed
        for daemon in cluster.daemons {
            let reply = try eventually(timeout: 60, "a daemon went on accepting changes") {
                () throws -> WireClient.Message? in
                let reply = try daemon.greetedClient().dispatchAndWait("add", ["text": "after the change"])
                return (reply["message"] as? String)?.contains("rewritten") == true ? reply : nil
            }
            #expect(reply.code == "storage_unavailable", "\(reply)")
            let status = try daemon.todo("status")
            #expect(status.output.contains("refusing changes: "), "\(status.output)")
            #expect(
                daemon.process.standardError.components(separatedBy: "refusing every change from now on").count == 2,
                "said once: \(daemon.process.standardError)")
        }
        print("SharedLogIntegrityTests: \(change.rawValue): every daemon noticed it after \(noticed) s")
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_meta WHERE key = 'refusal'") == "1")
        for daemon in cluster.daemons {
            #expect(try SharedLogCluster.list(of: daemon) == before, "reads go on, from the state applied")
        }
        let logged = change == .rowInserted ? "31" : change == .rowDeleted ? "29" : "30"
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_log") == logged, "no host appended")
    }

    /// Passes run while every host appends: a log that only grew is never taken for a changed one.
    @Test func aLogBeingAppendedToIsNeverTakenForAChangedOne() throws {
        let cluster = try SharedLogCluster(daemons: 3, arguments: ["--verify-interval", "1", "--log-level", "debug"])
        defer { cluster.close() }
        // A debug daemon's pass over 2,000 entries takes about 3 s, in which the writers below
        // append some 600 more (about 200 a second in all: each waits for its ack before its
        // pause); 5,000 took 27 s of CPU for the same. Under a sanitizer a pass is many times
        // slower: a shorter log shows the same.
        let versions = TestEnvironment.sanitizer == nil ? 2_000 : 1_000
        try SharedLogFaultTests.fill(cluster, versions: versions)
        // Steady writers (a dispatch every 10 ms or so each): the log grows under every pass.
        // Flat out, six writers took the cores from the passes they were there to overlap, and
        // beside four CPU burners not every daemon finished two passes within 120 s.
        let writers = SharedLogFailureTests.writers(on: cluster, perDaemon: 2, prefix: "verified", pause: 10_000)
        defer { for writer in writers { writer.cancel() } }
        let passes = cluster.daemons.map {
            $0.process.standardError.components(separatedBy: "verified the shared log").count
        }
        try eventually(
            timeout: 120 * TestEnvironment.loadFactor, "not every daemon finished two passes while the others wrote"
        ) {
            zip(cluster.daemons, passes).allSatisfy {
                $0.process.standardError.components(separatedBy: "verified the shared log").count >= $1 + 2
            } ? true : nil
        }
        let summaries = try writers.map { try $0.stop() }
        for daemon in cluster.daemons {
            #expect(
                !daemon.process.standardError.contains("refusing every change"),
                "\(daemon.process.standardError.suffix(2000))")
        }
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_meta WHERE key = 'refusal'") == "0")
        try SharedLogFailureTests.expectLogMatches(
            summaries, cluster: cluster, alsoAdded: SharedLogFaultTests.filled(versions))
    }

    /// With the default interval (30 s, and a pass), a change is noticed within 60 s.
    @Test(.enabled(if: TestEnvironment.assertsTimeBounds, Comment(rawValue: TestEnvironment.timeBoundsSkipReason)))
    func aChangedLogIsNoticedWithinSixtySecondsAtTheDefaultInterval() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        try SharedLogFailureTests.add((1...5).map { "item \($0)" }, on: cluster.daemons[0])
        _ = try cluster.agreedList(atLeast: 5)
        try SharedLogFailureTests.tamper(
            cluster.postgres, "UPDATE todod_log SET payload = replace(payload, 'item 2', 'forged') WHERE version = 2")
        let changed = NumberedWriter.now()
        for daemon in cluster.daemons {
            try eventually(timeout: 60, "not noticed within 60 s") {
                let log = try WireClient(path: daemon.socketPath).hello()["log"] as? [String: Any]
                return log?["refusingWrites"] != nil ? true : nil
            }
        }
        let took = NumberedWriter.now() - changed
        print("SharedLogIntegrityTests: the default interval noticed the change after \(took) s")
    }

    /// A database written by the first release (schema 1) or by the last release before schema 3
    /// (schema 2, the same ten actions) is migrated once, keeps its log, snapshots and ledger,
    /// and takes appends in the new form.
    @Test(arguments: [1, 2]) func aLogWrittenByAnEarlierSchemaIsMigratedOnceAndKept(schema: Int) throws {
        let cluster = try SharedLogCluster(daemons: 0)
        defer { cluster.close() }
        let fixture = packageRoot.appendingPathComponent(
            "Tests/JournalIntegrationTests/SharedLog/Fixtures/shared-log-schema-\(schema).sql")
        try cluster.postgres.psql(try String(contentsOf: fixture, encoding: .utf8))
        #expect(try cluster.postgres.psql("SELECT value FROM todod_meta WHERE key = 'schema_version'") == "\(schema)")

        let first = try cluster.addDaemon(arguments: ["--verify-interval", "1", "--log-level", "debug"])
        #expect(
            first.process.standardError.contains(
                "migrated the shared log's schema in PostgreSQL \(cluster.postgres.socketDirectory)/postgres from version \(schema) to 3"
            ), "\(first.process.standardError)")
        #expect(first.process.standardError.contains("recovered version 10 from PostgreSQL"))
        #expect(first.process.standardError.contains("(snapshot at 10, 0 actions replayed"))
        #expect(try cluster.postgres.psql("SELECT value FROM todod_meta WHERE key = 'schema_version'") == "3")
        let second = try cluster.addDaemon()
        #expect(!second.process.standardError.contains("migrated"), "once")

        let list = try SharedLogCluster.list(of: first)
        #expect(list.version == 10)
        #expect(
            list.items == [
                "2 x written by schema \(schema), item 2", "3   edited \"quoted\" \\ backslash é",
                "4   written by schema \(schema), item 4", "5   written by schema \(schema), item 5",
                "6   written by schema \(schema), item 6", "7   written by schema \(schema), item 7",
            ])
        // The exactly-once ledger came through the migration: the old client's sequence 8 is known.
        let old = try WireClient(path: second.socketPath)
        #expect(try old.hello(name: "test/1", clientID: "fixture-writer")["lastSequence"] as? Int == 8)
        try SharedLogFailureTests.add(["after the migration"], on: second)
        _ = try cluster.agreedList(atLeast: 11)
        // Kept as received, with its acceptance identifier; the older rows as accepted.
        #expect(
            try cluster.postgres.psql("SELECT payload, acceptance_id IS NOT NULL FROM todod_log WHERE version = 11")
                == #"{"text":"after the migration"}|t"#)
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_log WHERE acceptance_id IS NULL") == "10")
        #expect(throws: (any Error).self) { try cluster.postgres.psql("DELETE FROM todod_log WHERE version = 1") }
        try eventually("no verification pass of the migrated log") {
            first.process.standardError.contains("verified the shared log: 11 entries up to version 11") ? true : nil
        }
        #expect(
            (try WireClient(path: first.socketPath).hello()["log"] as? [String: Any])?["refusingWrites"] == nil,
            "the migrated chain verifies")
    }

    /// docs/shared-log-roles.sql: the schema made by its owner, the daemons on a role that may
    /// only read and append.
    @Test func daemonsOnAReadAndAppendRoleWorkAndCannotChangeTheLog() throws {
        let cluster = try SharedLogCluster(daemons: 0)
        defer { cluster.close() }
        let postgres = cluster.postgres
        let prepared = try Self.prepareDatabaseForTheDaemonsRole(on: postgres)
        #expect(prepared.contains("the shared log's schema (todod_*) in PostgreSQL"))
        #expect(prepared.contains("/todo is at version 3"), "\(prepared)")

        let a = try cluster.addDaemon(conninfo: postgres.conninfo(as: "todod", database: "todo"))
        let b = try cluster.addDaemon(conninfo: postgres.conninfo(as: "todod", database: "todo"))
        try SharedLogFailureTests.add(["from a"], on: a)
        try SharedLogFailureTests.add(["from b"], on: b)
        #expect(try cluster.agreedList(atLeast: 2).items == ["1   from a", "2   from b"])
        for sql in [
            "UPDATE todod_log SET name = 'x'", "DELETE FROM todod_log", "UPDATE todod_head SET version = 0",
            "INSERT INTO todod_log (version, name, payload, accepted_at, hash) VALUES (3, 'add', '{}', 0, '')",
        ] {
            #expect(throws: (any Error).self, "\(sql) as the daemons' role") {
                try postgres.psql(sql, as: "todod", in: "todo")
            }
            #expect(Self.lastError(of: sql, postgres, as: "todod", in: "todo").contains("permission denied"))
        }
        #expect(
            Self.lastError(of: "UPDATE todod_log SET name = 'x'", postgres, as: "todod_owner", in: "todo").contains(
                "todod_log is append-only: UPDATE refused"), "the owner is stopped by the trigger")
        // A head of the session's own, in front of the real one, does not fool the append.
        let shadowed = try postgres.psql(
            """
            CREATE TEMP TABLE todod_head (only_row boolean, version bigint, hash bytea);
            INSERT INTO todod_head VALUES (true, 7, '\\x00');
            SELECT todod_append(7, '\\x00', ARRAY['add'], ARRAY['{}'], ARRAY[0::bigint], ARRAY[NULL::bigint],
                ARRAY[NULL::integer], ARRAY[NULL::text], ARRAY[NULL::bigint], ARRAY[NULL::text], ARRAY['\\x00'::bytea],
                ARRAY[NULL::uuid]);
            """, as: "todod", in: "todo")
        #expect(
            shadowed.split(separator: "\n").last == "-3",
            "overtaken at the real head (2), nothing appended: \(shadowed)")
        #expect(try postgres.psql("SELECT count(*) FROM todod_log", in: "todo") == "2")
        try SharedLogFailureTests.add(["still writing"], on: a)
        #expect(try cluster.agreedList(atLeast: 3).version == 3)
    }

    /// A role that may append but not save snapshots: every dispatch is still acked and kept,
    /// each lost snapshot is logged with the server's reason, and a restart replays the log.
    @Test func aSnapshotTheDatabaseRefusesIsLoggedAndLosesNoAction() throws {
        let cluster = try SharedLogCluster(daemons: 0)
        defer { cluster.close() }
        let postgres = cluster.postgres
        try Self.prepareDatabaseForTheDaemonsRole(
            on: postgres, thenAsOwner: "REVOKE INSERT ON todod_snapshots FROM todod")

        let conninfo = postgres.conninfo(as: "todod", database: "todo")
        let daemon = try cluster.addDaemon(arguments: ["--snapshot-interval", "2"], conninfo: conninfo)
        try SharedLogFailureTests.add(["one", "two", "three", "four", "five"], on: daemon)
        try eventually("the lost snapshots are logged; stderr:\n\(daemon.process.standardError)") {
            let log = daemon.process.standardError
            let logged = [2, 4].allSatisfy { log.contains("the snapshot at version \($0) was not saved") }
            return logged ? true : nil
        }
        #expect(daemon.process.standardError.contains("permission denied for table todod_snapshots"))
        #expect(try daemon.stop() == 0)
        #expect(daemon.process.standardError.contains("the final snapshot at version 5 was not saved"))
        #expect(try postgres.psql("SELECT count(*) FROM todod_snapshots", in: "todo") == "0")

        let restarted = try cluster.addDaemon(conninfo: conninfo)
        let items = try cluster.agreedList(atLeast: 5).items
        #expect(items == ["1   one", "2   two", "3   three", "4   four", "5   five"])
        #expect(restarted.process.standardError.contains("5 actions replayed"), "\(restarted.process.standardError)")
    }

    /// docs/shared-log-roles.sql on `postgres`: the roles `todod_owner` and `todod`, the
    /// database `todo` with the schema its owner prepared (`todod --prepare-schema`), the
    /// grants, then `ownersSQL` as the owner. Returns what the preparing todod printed.
    @discardableResult
    static func prepareDatabaseForTheDaemonsRole(on postgres: PrivatePostgres, thenAsOwner ownersSQL: String = "")
        throws -> String
    {
        try postgres.psql(
            "CREATE ROLE todod_owner LOGIN; CREATE ROLE todod LOGIN; CREATE DATABASE todo OWNER todod_owner")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let prepared = try ChildProcess(
            Binaries.path("todod"),
            ["--postgres", postgres.conninfo(as: "todod_owner", database: "todo"), "--prepare-schema"],
            environment: [:], outputDirectory: directory)
        guard try prepared.waitForExit() == 0 else {
            throw TestFailure("todod --prepare-schema failed: \(prepared.standardError)")
        }
        let grants = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/shared-log-roles.sql"), encoding: .utf8)
        try postgres.psql(grants + "\n" + ownersSQL, as: "todod_owner", in: "todo")
        return prepared.standardError
    }

    /// psql's error for `sql`, or "" when it ran.
    static func lastError(
        of sql: String, _ postgres: PrivatePostgres, as user: String = "postgres", in database: String = "postgres"
    ) -> String {
        do {
            try postgres.psql(sql, as: user, in: database)
            return ""
        } catch {
            return "\(error)"
        }
    }

    /// The SQL of `change` on the log of `postgres` (30 entries).
    static func sql(for change: Change, _ postgres: PrivatePostgres) throws -> String {
        switch change {
        case .payloadRewritten:
            return "UPDATE todod_log SET payload = replace(payload, 'item 0 9', 'forged') WHERE version = 9"
        case .rowDeleted:
            return "DELETE FROM todod_log WHERE version = 15"
        case .rowInserted:
            return """
                INSERT INTO todod_log (version, name, payload, accepted_at, host, hash)
                SELECT 31, name, payload, accepted_at, host, hash FROM todod_log WHERE version = 30
                """
        case .hashesRecomputed:
            return try recomputedChain(from: 9, postgres)
        }
    }

    /// Statements that rewrite the payload at `version` and recompute every hash from there on,
    /// the head's included, so that the chain in the database is whole again.
    static func recomputedChain(from version: Int, _ postgres: PrivatePostgres) throws -> String {
        let rows = try postgres.psql(
            """
            SELECT version, name, encode(convert_to(payload, 'UTF8'), 'hex'), accepted_at, coalesce(peer_uid::text, ''),
                   coalesce(peer_pid::text, ''), coalesce(client_id, ''), coalesce(client_sequence::text, ''),
                   coalesce(host, '') FROM todod_log ORDER BY version
            """
        ).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        var link = LogChain.origin
        var statements: [String] = []
        for row in rows {
            var payload = Array(hexBytes(row[2]))
            let forged = Int(row[0])! == version
            if forged {
                payload = Array(
                    String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "item", with: "forged").utf8)
            }
            let entry = JournalEntry(
                version: UInt64(row[0])!, name: row[1], payload: payload, acceptedAt: Int64(row[3])!,
                peerUID: UInt32(row[4]), peerPID: Int32(row[5]), clientID: row[6].isEmpty ? nil : row[6],
                clientSequence: UInt64(row[7]), host: row[8].isEmpty ? nil : row[8])
            link = link.appending(entry)
            guard entry.version >= UInt64(version) else { continue }
            let setPayload = forged ? "payload = convert_from(decode('\(hex(payload))', 'hex'), 'UTF8'), " : ""
            statements.append(
                "UPDATE todod_log SET \(setPayload)hash = decode('\(link.hexHash)', 'hex') WHERE version = \(entry.version)"
            )
        }
        statements.append("UPDATE todod_head SET hash = decode('\(link.hexHash)', 'hex')")
        return statements.joined(separator: ";\n")
    }

    private static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
