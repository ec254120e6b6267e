import Foundation
import Glibc
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// The shared log when things break: a daemon killed under load, PostgreSQL restarted or gone,
/// a log rewritten under a daemon, passwords, the schema at start, and the side effects that
/// run once for every host. Real daemons on a private PostgreSQL (`SharedLogCluster`); writers
/// are exactly-once clients (`NumberedWriter`), and every outcome is checked against the log
/// as psql reads it. One test at a time: each starts a server and up to three daemons, and
/// they would only compete for the two cores.
@Suite(
    .blocking(.long), .serialized,
    .enabled(if: PrivatePostgres.isAvailable, Comment(rawValue: PrivatePostgres.skipReason)))
struct SharedLogFailureTests {
    @Test func aDaemonKilledUnderLoadLeavesTheOthersWritingAndCatchesUpOnRestart() throws {
        let cluster = try SharedLogCluster(daemons: 3)
        defer { cluster.close() }
        let writers = Self.writers(on: cluster, perDaemon: 2, prefix: "kill")
        defer { for writer in writers { writer.cancel() } }
        for writer in writers { try writer.waitForAcks(atLeast: 10) }

        let victim = cluster.daemons[2]
        try victim.crash()
        let survivors = writers.prefix(4)
        let acked = survivors.map(\.ackCount)
        for (writer, count) in zip(survivors, acked) { try writer.waitForAcks(atLeast: count + 20) }

        try victim.start()
        let victimWriters = writers.suffix(2)
        let beforeRestart = victimWriters.map(\.ackCount)
        for (writer, count) in zip(victimWriters, beforeRestart) { try writer.waitForAcks(atLeast: count + 10) }
        let summaries = try writers.map { try $0.stop() }

        #expect(cluster.daemons.allSatisfy { $0.process.isRunning })
        try Self.expectLogMatches(summaries, cluster: cluster)
        #expect(
            summaries.suffix(2).allSatisfy { $0.reconnects >= 1 },
            "the victim's writers lost their connection and resent")
    }

    @Test(arguments: [PrivatePostgres.StopMode.fast, .immediate])
    func postgresRestartedUnderLoadLosesNothingAndAppliesNothingTwice(mode: PrivatePostgres.StopMode) throws {
        let cluster = try SharedLogCluster(daemons: 3)
        defer { cluster.close() }
        let writers = Self.writers(on: cluster, perDaemon: 2, prefix: "restart-\(mode.rawValue)")
        defer { for writer in writers { writer.cancel() } }
        for writer in writers { try writer.waitForAcks(atLeast: 10) }
        let pids = cluster.daemons.map(\.process.pid)
        let calm = NumberedWriter.now()
        usleep(2_000_000)
        let restarting = NumberedWriter.now()

        try cluster.postgres.restart(mode: mode)
        let back = NumberedWriter.now()
        let acked = writers.map(\.ackCount)
        for (writer, count) in zip(writers, acked) { try writer.waitForAcks(atLeast: count + 10) }
        for (index, daemon) in cluster.daemons.enumerated() { try Self.add(["after the restart \(index)"], on: daemon) }
        let summaries = try writers.map { try $0.stop() }
        if TestEnvironment.assertsTimeBounds {
            let before = summaries.map { $0.longestAckGap(from: calm, to: restarting) }.max() ?? 0
            for summary in summaries {
                let first = try #require(summary.firstAck(after: back))
                #expect(
                    first - back < SharedLogFaultTests.bound(1, before: before),
                    "\(summary.clientID): first ack \(first - back) s after the database returned (\(before) s before)")
            }
            print(
                "SharedLogFailureTests: PostgreSQL \(mode.rawValue) restart: first acks \(summaries.map { SharedLogFaultTests.ms(($0.firstAck(after: back) ?? 0) - back) }) ms after its return"
            )
        }

        #expect(
            cluster.daemons.map(\.process.pid) == pids && cluster.daemons.allSatisfy { $0.process.isRunning },
            "no daemon exited")
        for daemon in cluster.daemons {
            // The listener reconnects on its own backoff (up to 2 s), after the writes resumed.
            try eventually("a daemon did not log the database's return; stderr:\n\(daemon.process.standardError)") {
                let log = daemon.process.standardError
                return log.contains("the shared log's database is unreachable")
                    && log.contains("the shared log's database is reachable again") ? true : nil
            }
        }
        try Self.expectLogMatches(summaries, cluster: cluster, alsoAdded: (0..<3).map { "after the restart \($0)" })
        print(
            "SharedLogFailureTests: PostgreSQL restart (\(mode.rawValue)): \(summaries.map(\.storageErrors).reduce(0, +)) storage_unavailable answers resent"
        )
    }

    @Test func anUnreachableDatabaseLeavesReadsWorkingRefusesChangesAndIsRejoinedWhenBack() throws {
        let cluster = try SharedLogCluster(daemons: 3)
        defer { cluster.close() }
        let writer = try cluster.daemons[0].greetedClient()
        for text in ["milk", "bread"] { #expect(try writer.dispatchAndWait("add", ["text": text]).type == "ack") }
        // Another host's daemon judges an action on what it has heard of so far.
        _ = try cluster.agreedList(atLeast: 2)
        #expect(try cluster.daemons[1].greetedClient().dispatchAndWait("complete", ["number": 1]).type == "ack")
        let before = try cluster.agreedList(atLeast: 3)
        #expect(before.items == ["1 x milk", "2   bread"])

        try cluster.postgres.stop(mode: .fast)
        for (index, daemon) in cluster.daemons.enumerated() {
            #expect(try SharedLogCluster.list(of: daemon) == before, "daemon \(index) serves its model")
            let list = try daemon.todo("list")
            #expect(list.status == 0 && list.output == "1 [x] milk\n2 [ ] bread\n1 open, 1 done\n", "\(list)")
            let client = try daemon.greetedClient()
            var answers: [String] = []
            for attempt in 0..<2 {
                let started = Date()
                let reply = try client.dispatchAndWait("add", ["text": "while down \(index) \(attempt)"])
                let elapsed = Date().timeIntervalSince(started)
                answers.append(String(format: "%.1f", elapsed * 1000))
                #expect(reply.code == "storage_unavailable", "\(reply)")
                #expect(
                    (reply["message"] as? String)?.contains("could not be saved, so it was not applied") == true,
                    "\(reply)")
                #expect(elapsed < 10, "a dispatch was answered after \(elapsed) s")
            }
            print(
                "SharedLogFailureTests: database down: daemon \(index) answered storage_unavailable in \(answers[0]) ms, then \(answers[1]) ms"
            )
            try Self.waitUntilReachable(false, daemon)
            #expect(try daemon.todo("status").output.contains("database: unreachable since "))
            #expect(try SharedLogCluster.list(of: daemon) == before, "the refused dispatches changed nothing")
        }

        try cluster.postgres.startAgain()
        for (index, daemon) in cluster.daemons.enumerated() {
            // Numbered, so that a resend after an answer that came too late cannot add it twice.
            let client = try WireClient(path: daemon.socketPath)
            try client.hello(clientID: "back-\(index)")
            try eventually("daemon \(index) never accepted a change again") {
                let reply = try client.reply(to: client.dispatch("add", ["text": "back \(index)"], sequence: 1))
                if reply.type == "ack" { return true }
                guard reply.code == "storage_unavailable" else { throw TestFailure("\(reply)") }
                usleep(100_000)
                return nil
            }
            try Self.waitUntilReachable(true, daemon)
            #expect(try daemon.todo("status").output.contains("database: reachable\n"))
        }
        let after = try cluster.agreedList(atLeast: 6)
        #expect(
            after.items == before.items + ["3   back 0", "4   back 1", "5   back 2"], "nothing refused was applied")
        #expect(after.version == 6)
    }

    @Test func aDatabaseThatStopsAnsweringGetsADispatchAnsweredByTheDeadlineAndItsResendAppliedOnce() throws {
        let cluster = try SharedLogCluster(daemons: 1)
        defer { cluster.close() }
        let daemon = cluster.daemons[0]
        let client = try WireClient(path: daemon.socketPath)
        try client.hello(clientID: "hung")
        #expect(try client.reply(to: client.dispatch("add", ["text": "before"], sequence: 1)).version == 1)

        // A server that stops answering, as behind a silent network partition: only the
        // daemon's own deadlines end its calls.
        let server = cluster.postgres.serverProcesses()
        for pid in server { kill(pid, SIGSTOP) }
        var stopped = true
        defer { if stopped { for pid in server { kill(pid, SIGCONT) } } }
        let started = Date()
        let reply = try client.reply(to: client.dispatch("add", ["text": "while hung"], sequence: 2))
        let elapsed = Date().timeIntervalSince(started)
        print(
            "SharedLogFailureTests: database not answering: storage_unavailable after \(String(format: "%.0f", elapsed * 1000)) ms"
        )
        #expect(reply.code == "storage_unavailable", "\(reply)")
        // Sent and unanswered, the append may have run; a catch-up the daemon was making when
        // the server stopped can also take the deadline, and then the append is never sent.
        let message = reply["message"] as? String ?? ""
        #expect(
            message.contains("it may or may not have been applied")
                || message.contains("could not be saved, so it was not applied"), "\(reply)")
        #expect(elapsed < 10)
        for pid in server { kill(pid, SIGCONT) }
        stopped = false

        try eventually("the resend was never acked") {
            let resent = try client.reply(to: client.dispatch("add", ["text": "while hung"], sequence: 2))
            if resent.type == "ack" { return resent.version == 2 ? true : nil }
            guard resent.code == "storage_unavailable" else { throw TestFailure("\(resent)") }
            usleep(100_000)
            return nil
        }
        #expect(try cluster.agreedList(atLeast: 2) == (["1   before", "2   while hung"], 2))
        #expect(
            try cluster.logRows().map { "\($0.version) \($0.clientID ?? "") \($0.sequence ?? 0)" } == [
                "1 hung 1", "2 hung 2",
            ])
    }

    @Test func aLogReplacedWhileADaemonWasStoppedIsRefusedAtItsStartUntilItsHeadFileIsRemoved() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        let (a, b) = (cluster.daemons[0], cluster.daemons[1])
        try Self.add((1...6).map { "old \($0)" }, on: a)
        _ = try cluster.agreedList(atLeast: 6)
        #expect(try a.stop() == 0)
        #expect(try b.stop() == 0)
        try Self.cutLog(cluster.postgres, to: 3)
        // A daemon that never saw the old log appends other entries on the cut: a log with
        // the same versions and a different chain.
        let c = try cluster.addDaemon()
        try Self.add((4...7).map { "new \($0)" }, on: c)
        #expect(try c.stop() == 0)

        let refused = try Self.refusedRestart(of: b, cluster)
        let headFile = b.dataDirectory + "/shared-log-head"
        #expect(refused.status == 1)
        #expect(
            refused.error.contains(
                "cannot start: the log PostgreSQL \(cluster.postgres.socketDirectory)/postgres was rewritten: the entry at version 6 is not the one this daemon saw; if the database was replaced on purpose, remove \(headFile)"
            ),
            "\(refused.error)")
        // The fix the message gives.
        #expect(unlink(headFile) == 0)
        try b.start()
        let list = try SharedLogCluster.list(of: b)
        #expect(list.items == (1...3).map { "\($0)   old \($0)" } + (4...7).map { "\($0)   new \($0)" })
        #expect(list.version == 7)
    }

    @Test func aLogCutShortWhileADaemonWasStoppedIsRefusedAtItsStart() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        let (a, b) = (cluster.daemons[0], cluster.daemons[1])
        try Self.add((1...6).map { "item \($0)" }, on: a)
        _ = try cluster.agreedList(atLeast: 6)
        #expect(try b.stop() == 0)
        try Self.cutLog(cluster.postgres, to: 4)

        let reason =
            "was rewritten: it ends at version 4, but this daemon saw version 6 (commits were lost: a restore or a failover?); if the database was replaced on purpose, remove \(b.dataDirectory)/shared-log-head"
        let refused = try Self.refusedRestart(of: b, cluster)
        #expect(refused.status == 1)
        #expect(refused.error.contains(reason), "\(refused.error)")
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_log") == "4", "the refused daemon wrote nothing")
        let again = try Self.refusedRestart(of: b, cluster)
        #expect(
            again.status == 1 && again.error.contains(reason),
            "a refused start left the head it saw as it was: \(again.error)")
    }

    @Test func anEntryChangedUnderACrashedDaemonIsRefusedWhenItReadsIt() throws {
        let cluster = try SharedLogCluster(daemons: 2)
        defer { cluster.close() }
        let (a, b) = (cluster.daemons[0], cluster.daemons[1])
        try Self.add((1...6).map { "item \($0)" }, on: a)
        _ = try cluster.agreedList(atLeast: 6)
        // Killed, it saved no snapshot: its next start replays the log from the beginning.
        try b.crash()
        try Self.tamper(
            cluster.postgres, "UPDATE todod_log SET payload = replace(payload, 'item 2', 'forged') WHERE version = 2")

        let refused = try Self.refusedRestart(of: b, cluster)
        #expect(refused.status == 1)
        #expect(
            refused.error.contains(
                "cannot start: the log PostgreSQL \(cluster.postgres.socketDirectory)/postgres was rewritten: the entry at version 2 does not chain to the one before it"
            ),
            "\(refused.error)")
    }

    @Test(arguments: ["the head's hash changed", "the newest entries deleted"])
    func aRunningDaemonWhoseLogIsRewrittenRefusesEveryChangeAndGoesOnServingReads(rewrite: String) throws {
        let cluster = try SharedLogCluster(daemons: 1)
        defer { cluster.close() }
        let daemon = cluster.daemons[0]
        try Self.add((1...6).map { "item \($0)" }, on: daemon)
        let before = try cluster.agreedList(atLeast: 6)
        if rewrite == "the head's hash changed" {
            try cluster.postgres.psql("UPDATE todod_head SET hash = sha256('forged')")
        } else {
            try Self.cutLog(cluster.postgres, to: 4)
        }
        let logged = try cluster.postgres.psql("SELECT count(*) FROM todod_log")

        let client = try daemon.greetedClient()
        for attempt in 0..<2 {
            let reply = try client.dispatchAndWait("add", ["text": "after the rewrite \(attempt)"])
            #expect(reply.code == "storage_unavailable", "\(reply)")
            #expect(
                (reply["message"] as? String)?.contains(
                    "The action was not applied: the log PostgreSQL \(cluster.postgres.socketDirectory)/postgres was rewritten: "
                ) == true, "\(reply)")
        }
        let status = try daemon.todo("status")
        #expect(
            status.output.contains(
                "refusing changes: the log PostgreSQL \(cluster.postgres.socketDirectory)/postgres was rewritten: "),
            "\(status.output)")
        #expect(
            daemon.process.standardError.contains("refusing every change from now on: the log PostgreSQL"),
            "\(daemon.process.standardError)")
        #expect(try SharedLogCluster.list(of: daemon) == before, "reads go on")
        #expect(try daemon.todo("list").output.hasPrefix("1 [ ] item 1\n"))
        #expect(
            try cluster.postgres.psql("SELECT count(*) FROM todod_log") == logged, "the refusing daemon wrote nothing")
        #expect(daemon.process.isRunning)
    }

    @Test func thePasswordNeverAppears() throws {
        let secrets = ["S3cr3t-XYZ", "S3cr3t-ENV", "S3cr3t-URI"]
        let cluster = try SharedLogCluster(daemons: 0)
        defer { cluster.close() }
        let postgres = cluster.postgres
        let nowhere = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: nowhere) }
        // No server there: it waits 10 s for one, then refuses to start, meanwhile the rest runs.
        let unreachable = try ChildProcess(
            Binaries.path("todod"),
            [
                "--socket", nowhere + "/todod.sock", "--data-dir", nowhere + "/data", "--postgres",
                "host=\(nowhere) user=postgres dbname=postgres password=\(secrets[0])",
            ],
            environment: ["PGPASSWORD": secrets[1]], outputDirectory: nowhere)
        let daemons = [
            try cluster.addDaemon(conninfo: postgres.conninfo + " password=\(secrets[0])"),
            try cluster.addDaemon(environment: ["PGPASSWORD": secrets[1]]),
            try cluster.addDaemon(
                conninfo: "postgresql://postgres:\(secrets[2])@/postgres?host=\(postgres.socketDirectory)"),
        ]
        var seen: [String] = []
        let badOption = try Self.refusedStart(
            ["--postgres", "host=\(nowhere) password=\(secrets[0]) no_such_option=1"], in: nowhere)
        #expect(badOption.status == 2 && badOption.error.contains("the connection string is not valid"), "\(badOption)")
        seen.append(badOption.error)

        for (index, daemon) in daemons.enumerated() { try Self.add(["item \(index)"], on: daemon) }
        _ = try cluster.agreedList(atLeast: 3)
        try postgres.stop(mode: .fast)
        for daemon in daemons {
            let refused = try daemon.greetedClient().dispatchAndWait("add", ["text": "while down"])
            let message = refused["message"] as? String ?? ""
            #expect(
                refused.code == "storage_unavailable"
                    && message.contains("PostgreSQL \(postgres.socketDirectory)/postgres"), "\(refused)")
            seen.append(message)
            let added = try daemon.todo("add", "while down")
            #expect(added.status == 1)
            seen.append(added.error)
            try Self.waitUntilReachable(false, daemon)
            let status = try daemon.todo("status").output
            #expect(status.contains("database: unreachable since"))
            seen.append(status)
        }
        try postgres.startAgain()
        for daemon in daemons {
            try Self.waitUntilReachable(true, daemon)
            seen.append(try daemon.todo("status").output)
            seen.append(try daemon.todo("log", "--json").output)
            seen.append(try daemon.todo("log").output)
            seen.append(try Self.filesText(under: daemon.dataDirectory))
        }
        seen.append(
            try postgres.psql(
                "SELECT * FROM todod_log; SELECT * FROM todod_snapshots; SELECT * FROM todod_meta; SELECT * FROM todod_head"
            ))
        seen.append(try postgres.psql("SELECT application_name, query FROM pg_stat_activity"))
        for daemon in daemons { #expect(try daemon.stop() == 0) }
        seen += daemons.map(\.process.standardError)
        #expect(try unreachable.waitForExit(timeout: 60) == 1)
        #expect(unreachable.standardError.contains("cannot start: "), "\(unreachable.standardError)")
        seen.append(unreachable.standardError)

        for text in seen {
            for secret in secrets { #expect(!text.contains(secret), "\(secret) appears in: \(text)") }
        }
    }

    @Test func daemonsStartingTogetherOnAnEmptyDatabaseCreateTheSchemaOnce() throws {
        let postgres = try PrivatePostgres.start()
        defer { postgres.close() }
        let directories = try (0..<3).map { _ in try makeTemporaryDirectory() }
        defer { for directory in directories { try? FileManager.default.removeItem(atPath: directory) } }
        let daemons = try directories.map { directory in
            try ChildProcess(
                Binaries.path("todod"),
                [
                    "--socket", directory + "/todod.sock", "--data-dir", directory + "/data", "--postgres",
                    postgres.conninfo,
                ],
                outputDirectory: directory)
        }
        defer {
            for daemon in daemons where daemon.isRunning {
                daemon.send(SIGKILL)
                _ = try? daemon.waitForExit()
            }
        }
        for (daemon, directory) in zip(daemons, directories) {
            try eventually("a daemon did not start: \(daemon.standardError)") {
                if !daemon.isRunning { throw TestFailure("a daemon exited at start: \(daemon.standardError)") }
                return DaemonHarness.isAnswering(directory + "/todod.sock") ? true : nil
            }
        }
        #expect(try postgres.psql("SELECT key, value FROM todod_meta") == "schema_version|3")
        #expect(try postgres.psql("SELECT version FROM todod_head") == "0")
        #expect(!postgres.log.contains("ERROR"), "no daemon's schema statements failed: \(postgres.log)")
        for (index, directory) in directories.enumerated() {
            let client = try WireClient(path: directory + "/todod.sock")
            try client.hello()
            #expect(try client.dispatchAndWait("add", ["text": "from \(index)"]).type == "ack")
        }
        for daemon in daemons {
            daemon.send(SIGTERM)
            #expect(try daemon.waitForExit() == 0)
        }
        #expect(try postgres.psql("SELECT count(*) FROM todod_log") == "3")
    }

    @Test func aSchemaNewerThanThisDaemonIsRefusedAtStart() throws {
        let cluster = try SharedLogCluster(daemons: 1)
        defer { cluster.close() }
        try Self.add(["kept"], on: cluster.daemons[0])
        #expect(try cluster.daemons[0].stop() == 0)
        try cluster.postgres.psql("UPDATE todod_meta SET value = '99' WHERE key = 'schema_version'")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let refused = try Self.refusedStart(["--postgres", cluster.postgres.conninfo], in: directory)
        #expect(refused.status == 1)
        #expect(
            refused.error.contains("has schema version 99; this daemon reads schema versions 1 to 3"),
            "\(refused.error)")
        #expect(try cluster.postgres.psql("SELECT value FROM todod_meta") == "99")
        #expect(
            try cluster.postgres.psql("SELECT version, name FROM todod_log") == "1|add", "the log was left as it was")
    }

    @Test func aServerWithoutFsyncIsRefusedAtStart() throws {
        let postgres = try PrivatePostgres.start(extraSettings: ["fsync": "off"])
        defer { postgres.close() }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let refused = try Self.refusedStart(["--postgres", postgres.conninfo], in: directory)
        #expect(refused.status == 1)
        #expect(refused.error.contains("the server runs with fsync=off"), "\(refused.error)")
    }

    @Test func theExpirySideEffectRunsOnOneDaemonAndAnotherTakesOver() throws {
        let cluster = try SharedLogCluster(daemons: 3, arguments: ["--clear-done-after", "1"])
        defer { cluster.close() }
        let leader = try eventually("no daemon became the leader") { () -> Int? in
            let leaders = Self.leaders(cluster)
            return leaders.count == 1 ? leaders[0] : nil
        }
        #expect(try Self.leaderLockHolders(cluster.postgres) == 1)
        let followers = cluster.daemons.indices.filter { $0 != leader }.map { cluster.daemons[$0] }

        // The leader frozen (its lock held): nobody else removes the done item, even well
        // after it expired; thawed, the leader removes it, once.
        let frozen = cluster.daemons[leader].process
        frozen.send(SIGSTOP)
        var isFrozen = true
        defer { if isFrozen { frozen.send(SIGCONT) } }
        try Self.addAndComplete("first", number: 1, on: followers[0])
        try eventually("the other follower never saw the item done") {
            try SharedLogCluster.list(of: followers[1]).items == ["1 x first"] ? true : nil
        }
        usleep(2_500_000)
        for follower in followers {
            #expect(try SharedLogCluster.list(of: follower).items == ["1 x first"], "no follower ran the expiry")
        }
        frozen.send(SIGCONT)
        isFrozen = false
        try Self.waitUntilEmpty(cluster, atLeast: 3)
        #expect(try Self.expiryRemovals(of: 1, cluster.postgres) == 1)
        #expect(Self.leaders(cluster) == [leader], "the leader kept its lock")

        #expect(try cluster.daemons[leader].stop() == 0)
        let successor = try eventually("no other daemon took over the side effects") { () -> Int? in
            let leaders = Self.leaders(cluster).filter { $0 != leader }
            return leaders.count == 1 ? leaders[0] : nil
        }
        #expect(try Self.leaderLockHolders(cluster.postgres) == 1)
        let other = cluster.daemons[cluster.daemons.indices.first { $0 != leader && $0 != successor }!]
        try Self.addAndComplete("second", number: 2, on: other)
        try Self.waitUntilEmpty(cluster, atLeast: 6)
        #expect(try Self.expiryRemovals(of: 2, cluster.postgres) == 1)
        #expect(try cluster.postgres.psql("SELECT count(*) FROM todod_log WHERE name = 'remove'") == "2")
    }
}
