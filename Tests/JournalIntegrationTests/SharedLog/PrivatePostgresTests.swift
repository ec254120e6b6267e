import Foundation
import Glibc
import TestSupport
import Testing

/// The private PostgreSQL of the test harness: it starts, answers, restarts, and leaves no
/// process, file or shared memory behind, even when its postmaster was killed.
@Suite(.blocking, .enabled(if: PrivatePostgres.isAvailable, Comment(rawValue: PrivatePostgres.skipReason)))
struct PrivatePostgresTests {
    @Test func startsAnswersRestartsAndCloses() throws {
        let postgres = try PrivatePostgres.start()
        defer { postgres.close() }
        #expect(try postgres.psql("select 1") == "1")
        #expect(try postgres.psql("show fsync") == "on")
        #expect(try postgres.psql("show listen_addresses") == "", "no TCP")
        #expect(FileManager.default.fileExists(atPath: postgres.socketDirectory + "/.s.PGSQL.5432"))
        try postgres.psql("create table t (x int); insert into t values (1)")

        let first = try #require(postgres.postmasterPID)
        try postgres.restart(mode: .fast)
        let second = try #require(postgres.postmasterPID)
        #expect(second != first && !processIsAlive(first))
        try postgres.psql("insert into t values (2)")

        try postgres.stop(mode: .immediate)
        #expect(postgres.postmasterPID == nil && !processIsAlive(second))
        #expect { try postgres.psql("select 1") } throws: { "\($0)".contains("No such file or directory") }
        try postgres.startAgain()
        #expect(try postgres.psql("select x from t order by x") == "1\n2", "committed before the crash, so recovered")
        #expect(postgres.log.contains("automatic recovery in progress"))

        let third = try #require(postgres.postmasterPID)
        postgres.close()
        #expect(!processIsAlive(third))
        #expect(!FileManager.default.fileExists(atPath: postgres.directory))
    }

    @Test func extraSettingsReachTheServerQuotedAsGiven() throws {
        let postgres = try PrivatePostgres.start(extraSettings: [
            "fsync": "off", "cluster_name": "it's a \"test\" $HOME",
        ])
        defer { postgres.close() }
        #expect(try postgres.psql("show fsync") == "off")
        #expect(try postgres.psql("show cluster_name") == "it's a \"test\" $HOME")
    }

    @Test func aSettingThatIsNoNameIsRefusedBeforeAnythingStarts() throws {
        #expect { try PrivatePostgres.start(extraSettings: ["fsync=off -c x": "on"]) } throws: {
            "\($0)".contains("\"fsync=off -c x\" is not a setting name")
        }
    }

    @Test func aServerThatDoesNotStartIsReportedWithItsLogAndLeavesNothing() throws {
        var message = ""
        #expect {
            try PrivatePostgres.start(extraSettings: ["no_such_setting": "1"])
        } throws: { error in
            message = "\(error)"
            return message.contains("unrecognized configuration parameter \"no_such_setting\"")
        }
        let directory = try #require(message.firstMatch(of: /\/(tmp|dev\/shm)\/sync-test\.[A-Za-z0-9]{6}/)).output.0
        #expect(!FileManager.default.fileExists(atPath: String(directory)))
    }

    @Test func badSQLThrowsTheServersMessageAndStopsTheScript() throws {
        let postgres = try PrivatePostgres.start()
        defer { postgres.close() }
        #expect { try postgres.psql("select 1; select * from nowhere; create table after_error (x int)") } throws: {
            "\($0)".contains("relation \"nowhere\" does not exist")
        }
        #expect(try postgres.psql("select to_regclass('after_error') is null") == "t")
    }

    @Test func terminateBackendsEndsTheSessionsNamedSoAndNoOthers() throws {
        let postgres = try PrivatePostgres.start()
        defer { postgres.close() }
        let daemon = try sleepingSession(postgres, name: "todod-host-a")
        let other = try sleepingSession(postgres, name: "other")
        try eventually("the sessions did not start") {
            try postgres.psql("select count(*) from pg_stat_activity where wait_event = 'PgSleep'") == "2" ? true : nil
        }
        #expect(try postgres.terminateBackends(applicationNamePrefix: "x'y") == 0)
        #expect(try postgres.terminateBackends(applicationNamePrefix: "todod-") == 1)
        #expect(try daemon.waitForExit() != 0)
        #expect(daemon.standardError.contains("terminating connection due to administrator command"))
        #expect(other.isRunning)
    }

    @Test func closeKillsWhatAKilledPostmasterLeft() throws {
        let postgres = try PrivatePostgres.start()
        defer { postgres.close() }
        let session = try sleepingSession(postgres, name: "stuck")
        let backend = try eventually("the session did not start") {
            pid_t(
                try postgres.psql(
                    "select pid from pg_stat_activity where application_name = 'stuck' and wait_event = 'PgSleep'"))
        }
        let postmaster = try #require(postgres.postmasterPID)
        let segment = try #require(Self.interlockSegment(postgres))
        // Stopped, the backend cannot notice its postmaster died and exit by itself.
        kill(backend, SIGSTOP)
        kill(postmaster, SIGKILL)
        try eventually("the postmaster survived SIGKILL") { processIsAlive(postmaster) ? nil : true }
        #expect(processIsAlive(backend))

        postgres.close()
        #expect(!processIsAlive(backend))
        var info = shmid_ds()
        #expect(shmctl(segment, IPC_STAT, &info) == -1, "the System V segment was removed")
        #expect(!FileManager.default.fileExists(atPath: postgres.directory))
        #expect(try session.waitForExit() != 0)
    }

    /// A psql session named `name` sleeping a minute in the server.
    private func sleepingSession(_ postgres: PrivatePostgres, name: String) throws -> ChildProcess {
        try ChildProcess(
            "/usr/lib/postgresql/15/bin/psql",
            ["-X", "-d", postgres.conninfo + " application_name=" + name, "-c", "select pg_sleep(60)"],
            outputDirectory: postgres.directory
        )
    }

    /// The id of the server's System V interlock segment (line 7 of postmaster.pid).
    private static func interlockSegment(_ postgres: PrivatePostgres) -> Int32? {
        let text = try? String(contentsOfFile: postgres.dataDirectory + "/postmaster.pid", encoding: .utf8)
        let lines = text?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        return lines.count > 6 ? lines[6].split(separator: " ").last.flatMap { Int32($0) } : nil
    }
}
