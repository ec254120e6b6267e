import SyncStore
import Testing

@testable import SyncDaemon

@Suite struct DaemonArgumentsTests {
    let identity = AppIdentity(name: "board", version: "1.0.0")
    let sweep = DaemonOption("--sweep-after", argument: "DAYS", help: ["archive done cards after DAYS"])

    @Test func readsTheStandardOptions() throws {
        let arguments = try DaemonArguments(parsing: [
            "--socket", "/s/b.sock", "--data-dir", "/d", "--max-frame", "4096", "--log-level", "debug",
            "--inline-commit-limit", "0", "--allow-uid", "root",
        ])
        #expect(arguments.request == .serve)
        let configuration = try arguments.configuration(of: identity, environment: [:], userID: 7)
        #expect(configuration.socketPath == "/s/b.sock" && configuration.dataDirectory == "/d")
        #expect(configuration.maximumFrameLength == 4096 && configuration.inlineCommitLimit == 0)
        #expect(configuration.peerPolicy.allowedUserIDs == [0])
        #expect(configuration.serverName == "boardd/1.0.0" && configuration.identity == identity)
        #expect(arguments.logLevel == .debug)
    }

    @Test func readsTheTimeTravelBounds() throws {
        let configuration = try DaemonArguments(parsing: [
            "--snapshot-interval", "5", "--max-replay", "3", "--data-dir", "/d",
        ])
        .configuration(of: identity, environment: [:], userID: 7)
        #expect(configuration.snapshotInterval == 5 && configuration.maximumReplayedActions == 3)
        // An interval given is kept exactly; the default one follows the state's size.
        #expect(configuration.snapshotSchedule(from: .empty) == .every(5, from: .empty))
        let defaults = try DaemonArguments(parsing: ["--data-dir", "/d"]).configuration(
            of: identity, environment: [:], userID: 7)
        #expect(defaults.snapshotInterval == 1000 && defaults.maximumReplayedActions == 10_000)
        #expect(defaults.snapshotSchedule(from: .empty) == .followingSize(1000, maximumSpacing: 2500, from: .empty))
        #expect(throws: DaemonUsageError("--max-replay needs an integer of at least 1 (not 0)")) {
            try DaemonArguments(parsing: ["--max-replay", "0"])
        }
        #expect(throws: DaemonUsageError("--snapshot-interval needs an integer of at least 1 (not x)")) {
            try DaemonArguments(parsing: ["--snapshot-interval", "x"])
        }
    }

    @Test func defaultsComeFromTheIdentity() throws {
        let configuration = try DaemonArguments(parsing: []).configuration(
            of: identity,
            environment: ["XDG_RUNTIME_DIR": "/run/user/7", "HOME": "/h", "BOARDD_POSTGRES": "dbname=board"], userID: 7)
        #expect(configuration.socketPath == "/run/user/7/board/boardd.sock")
        #expect(configuration.dataDirectory == "/h/.local/state/board")
        #expect(configuration.postgres == "dbname=board")
    }

    @Test func readsTheAppsOptions() throws {
        let arguments = try DaemonArguments(parsing: ["--sweep-after", "3"], appOptions: [sweep])
        #expect(try arguments.integer(of: "--sweep-after", in: 1...365) == 3)
        #expect(try DaemonArguments(parsing: [], appOptions: [sweep]).integer(of: "--sweep-after", in: 1...365) == nil)
        #expect(throws: DaemonUsageError("--sweep-after needs an integer from 1 to 365 (not 0)")) {
            try DaemonArguments(parsing: ["--sweep-after", "0"], appOptions: [sweep]).integer(
                of: "--sweep-after", in: 1...365)
        }
    }

    @Test func refusesBadCommandLinesWithTheirReason() {
        let cases: [([String], String)] = [
            (["--frobnicate"], "unknown option --frobnicate"),
            (["--socket"], "--socket needs a value"),
            (["--data-dir", ""], "--data-dir needs a value"),
            (["--max-frame", "0"], "--max-frame needs an integer from 1 to 4294967295 (not 0)"),
            (["--max-frame", "ten"], "--max-frame needs an integer from 1 to 4294967295 (not ten)"),
            (["--inline-commit-limit", "-1"], "--inline-commit-limit needs an integer of at least 0 (not -1)"),
            (["--log-level", "loud"], "--log-level is one of error, warning, info, debug (not loud)"),
            (["--allow-uid", "no-such-user-here"], "--allow-uid: no user no-such-user-here"),
            (["--sweep-after", "1", "--sweep-after", "2"], "--sweep-after is given twice"),
        ]
        for (words, message) in cases {
            #expect(throws: DaemonUsageError(message), "\(words)") {
                try DaemonArguments(parsing: words, appOptions: [sweep])
            }
        }
    }

    @Test func refusesAnUnparsableConnectionStringWithoutQuotingIt() throws {
        let arguments = try DaemonArguments(parsing: ["--postgres", "password=secret host"])
        do {
            _ = try arguments.configuration(of: identity, environment: ["HOME": "/h"], userID: 7)
            Issue.record("accepted a connection string libpq cannot parse")
        } catch {
            #expect(error.description.hasPrefix("--postgres: "))
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func helpAndVersionAreRequests() throws {
        #expect(try DaemonArguments(parsing: ["--help"]).request == .help)
        #expect(try DaemonArguments(parsing: ["-h"]).request == .help)
        #expect(try DaemonArguments(parsing: ["--version"]).request == .version)
    }
}
