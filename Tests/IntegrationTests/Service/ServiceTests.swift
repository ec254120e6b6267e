import Foundation
import Glibc
import SyncProtocol
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// The daemon as a systemd service: units, socket activation, the notify protocol, logging,
/// signals and peer credentials. Everything runs here without systemd as PID 1; the booted
/// systemd check is scripts/systemd-e2e.
@Suite(.blocking) struct ServiceTests {
    /// The project's checkout.
    private static let root = packageRoot

    /// The units of `scope` as scripts/units writes them for the built binaries, in a new
    /// directory, with `dropIns` (file name: text) in `todod.service.d` beside them.
    private func units(_ scope: String, dropIns: [String: String] = [:]) throws -> String {
        let directory = try makeTemporaryDirectory()
        let generated = try Self.generatedUnits(in: directory)
        for unit in ["todod.socket", "todod.service"] {
            try FileManager.default.moveItem(atPath: "\(generated)/\(scope)/\(unit)", toPath: "\(directory)/\(unit)")
        }
        try FileManager.default.removeItem(atPath: generated)
        if !dropIns.isEmpty {
            try FileManager.default.createDirectory(
                atPath: directory + "/todod.service.d", withIntermediateDirectories: false)
        }
        for (name, text) in dropIns {
            try text.write(toFile: "\(directory)/todod.service.d/\(name)", atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// Runs scripts/units for todo with the built binaries into `directory`/generated.
    private static func generatedUnits(in directory: String) throws -> String {
        let binaries = URL(fileURLWithPath: Binaries.path("todod")).deletingLastPathComponent().path
        let output = directory + "/generated"
        let script = try ChildProcess(
            root.appendingPathComponent("scripts/units").path, ["todo", "todod", binaries, root.path, output],
            outputDirectory: directory)
        guard try script.waitForExit() == 0 else { throw TestFailure("scripts/units failed: \(script.standardError)") }
        return output
    }

    /// The drop-in that lets the system service reach PostgreSQL over TCP.
    private static func tcpDropIn() throws -> String {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try String(
            contentsOfFile: try generatedUnits(in: directory) + "/todod-postgres-tcp.conf", encoding: .utf8)
    }

    /// The drop-in for a database on the local Unix socket, as docs/SCALE_OUT.md shows it.
    private static let localDropIn = "[Service]\nEnvironment=\"TODOD_POSTGRES=host=/run/postgresql dbname=todo\"\n"

    private func analyze(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws
        -> CommandResult
    {
        let child = try ChildProcess(
            "/usr/bin/systemd-analyze", arguments, environment: environment, outputDirectory: directory)
        return CommandResult(status: try child.waitForExit(), output: child.standardOutput, error: child.standardError)
    }

    /// `systemd-analyze security --offline=yes` of the system service: the overall exposure
    /// and the names of the checks it fails.
    private func exposure(dropIns: [String: String] = [:]) throws -> (score: Double, failed: Set<String>) {
        let directory = try units("system", dropIns: dropIns)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try analyze(["security", "--offline=yes", directory + "/todod.service"], in: directory)
        #expect(result.error.isEmpty, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        let line = try #require(lines.first { $0.contains("Overall exposure level") })
        let score = try #require(Double(line.split(separator: ":")[1].split(separator: " ")[0]))
        let failed = lines.filter { $0.hasPrefix("✗") }.compactMap {
            $0.split(separator: " ").dropFirst().first.map(String.init)
        }
        return (score, Set(failed))
    }

    @Test(arguments: ["system", "user"])
    func unitsPassVerification(scope: String) throws {
        try verify(scope)
    }

    @Test(arguments: ["local", "tcp"])
    func theSystemServiceWithAPostgresDropInPassesVerification(dropIn: String) throws {
        try verify(
            "system", dropIns: ["postgres-\(dropIn).conf": dropIn == "tcp" ? try Self.tcpDropIn() : Self.localDropIn])
    }

    private func verify(_ scope: String, dropIns: [String: String] = [:]) throws {
        let directory = try units(scope, dropIns: dropIns)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(
            atPath: directory + "/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let scopeFlag = scope == "user" ? ["--user"] : []
        let result = try analyze(
            scopeFlag + ["verify", directory + "/todod.socket", directory + "/todod.service"], in: directory,
            environment: ["XDG_RUNTIME_DIR": directory + "/run"])
        #expect(result.status == 0)
        // verify only warns about unknown keys and bad values: any output is a failure.
        #expect(result.error.isEmpty, "\(result.error)")
    }

    @Test func theSystemServiceIsExposedAtMost2() throws {
        let score = try exposure().score
        #expect(score <= 2.0, "exposure \(score)")
    }

    /// Measured: 0.6 without the drop-in, 1.4 with it.
    @Test func theTCPDropInOpensTheNetworkToTheDatabaseAndNothingElse() throws {
        let closed = try exposure()
        let open = try exposure(dropIns: ["postgres-tcp.conf": try Self.tcpDropIn()])
        #expect(
            open.failed.subtracting(closed.failed) == [
                "PrivateNetwork=", "RestrictAddressFamilies=~AF_(INET|INET6)", "IPAddressDeny=",
            ])
        #expect(closed.failed.isSubset(of: open.failed))
        #expect(open.score <= 1.5, "exposure \(open.score)")
        #expect(
            try exposure(dropIns: ["postgres-local.conf": Self.localDropIn]) == closed,
            "a local socket needs nothing opened")
    }

    @Test func socketActivationServesTheFirstConnection() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/todod.sock"
        let activator = try ChildProcess(
            "/usr/bin/systemd-socket-activate",
            [
                "-l", socket, "--fdname=todod", Binaries.path("todod"), "--data-dir", directory + "/data",
            ], outputDirectory: directory)
        // Nothing runs todod yet: the first connection starts it, through the passed socket.
        let client = try eventually("systemd-socket-activate is not listening") { try? WireClient(path: socket) }
        try client.hello()
        #expect(try client.dispatchAndWait("add", ["text": "activated"]).type == "ack")
        #expect(activator.standardError.contains("listening on the socket passed by systemd (fd 3)"))
        // systemd-socket-activate became todod (exec, same pid).
        activator.send(SIGTERM)
        #expect(try activator.waitForExit() == 0)
        try DaemonHarness.requireNoLeftoverHandles(in: activator.standardError)
    }

    @Test(arguments: [false, true])
    func notifiesReadyWatchdogAndStopping(abstract: Bool) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notifications = try NotifyListener(abstract: abstract, directory: directory)
        let socket = directory + "/todod.sock"
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", socket, "--data-dir", directory + "/data"],
            environment: [
                "NOTIFY_SOCKET": notifications.address, "WATCHDOG_USEC": "200000",
            ], outputDirectory: directory)
        defer { daemon.send(SIGKILL) }

        let ready = try notifications.next { $0.contains("READY=1") }
        #expect(DaemonHarness.isAnswering(socket), "READY=1 came before the socket accepted")
        #expect(ready.contains("STATUS=serving 0 clients at version 0"))
        _ = try notifications.next { $0 == "WATCHDOG=1" }
        _ = try notifications.next { $0 == "WATCHDOG=1" }

        let client = try WireClient(path: socket)
        try client.hello()
        _ = try notifications.next { $0 == "STATUS=serving 1 client at version 0" }
        daemon.send(SIGTERM)
        _ = try notifications.next { $0.hasPrefix("STOPPING=1") }
        #expect(try daemon.waitForExit() == 0)
        try DaemonHarness.requireNoLeftoverHandles(in: daemon.standardError)
        #expect(try client.receive().type == "bye")
    }

    @Test func sigtermAnswersEveryAppliedActionBeforeBye() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let ids = try (0..<200).map { try client.dispatch("add", ["text": "item \($0)"]) }
        daemon.process.send(SIGTERM)
        var acked = 0
        while true {
            let message = try client.receive()
            if message.type == "bye" { break }
            if message.type == "ack" { acked += 1 }
        }
        #expect(try client.readsEndOfStream())
        #expect(try daemon.waitForStop() == 0)
        #expect(acked <= ids.count)
        try daemon.start()
        let version = try #require(try WireClient(path: daemon.socketPath).hello().version)
        #expect(version == acked, "every applied action was acked before bye, and nothing else applied")
    }

    @Test func sigtermStopsReadingEvenFromAClientThatKeepsSending() throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            do { while true { try client.dispatch("add", ["text": "more"]) } } catch {}
        }
        DispatchQueue.global().async(group: group) {
            while (try? client.receive()) != nil {}
        }
        try eventually("nothing was applied") {
            (try? WireClient(path: daemon.socketPath).hello().version).flatMap { $0 > 100 ? true : nil }
        }
        daemon.process.send(SIGTERM)
        #expect(try daemon.waitForStop(timeout: 10) == 0, "the daemon kept serving a client that kept sending")
        shutdown(client.descriptor, Int32(SHUT_RDWR))
        #expect(group.wait(timeout: .now() + 30) == .success)
    }

    @Test func sighupDoesNotStopTheDaemon() throws {
        let daemon = try DaemonHarness()
        daemon.process.send(SIGHUP)
        try eventually("SIGHUP was not logged") {
            daemon.process.standardError.contains("SIGHUP received") ? true : nil
        }
        #expect(try daemon.todo("add", "still here").status == 0)
    }

    @Test func underTheJournalLinesCarryPrioritiesAndNoTimestamps() throws {
        let daemon = try DaemonHarness(arguments: ["--log-level", "debug"], environment: ["JOURNAL_STREAM": "8:12345"])
        _ = try daemon.todo("status")
        try eventually("no debug line") {
            daemon.process.standardError.contains("<7>client 1 disconnected") ? true : nil
        }
        let lines = daemon.process.standardError.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<6>listening on ") })
        #expect(lines.allSatisfy { $0.hasPrefix("<") })
    }

    @Test func theLogLevelFiltersLines() throws {
        let daemon = try DaemonHarness(arguments: ["--log-level", "warning"])
        _ = try daemon.todo("status")
        #expect(try daemon.stop() == 0)
        #expect(daemon.process.standardError.isEmpty, "\(daemon.process.standardError)")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to connect as another user"), arguments: [false, true])
    func otherUsersAreRefusedUnlessAllowed(allowed: Bool) throws {
        let daemon = try DaemonHarness(arguments: allowed ? ["--allow-uid", "65534"] : [])
        chmod(daemon.directory, 0o755)
        chmod(daemon.socketPath, 0o666)
        // The checkout may be out of this user's reach (a mode-0700 directory): run a copy.
        let other = try OtherUser.start(
            "todo", ["--socket", daemon.socketPath, "--no-autostart", "status"], as: 65534, in: daemon.directory)
        let status = try other.waitForExit()
        if allowed {
            #expect(status == 0, "\(other.standardError)")
        } else {
            #expect(status == 1, "refused by the daemon")
            #expect(other.standardError.contains("This daemon does not serve user 65534"), "\(other.standardError)")
            #expect(daemon.process.standardError.contains("refused uid 65534"))
        }
    }
}

/// A datagram socket standing in for systemd's notify socket.
final class NotifyListener {
    /// The value for `$NOTIFY_SOCKET`.
    let address: String
    private let descriptor: Int32

    init(abstract: Bool, directory: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let name =
            abstract ? "todo-test-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : directory + "/notify"
        var bytes = Array(name.utf8)
        if abstract { bytes.insert(0, at: 0) }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw TestFailure("cannot bind the notify socket: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        address = abstract ? "@" + name : name
    }

    deinit {
        close(descriptor)
    }

    /// Waits for the next datagram satisfying `condition` (skipping others) and returns it.
    func next(_ condition: (String) -> Bool) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw TestFailure("no notification arrived") }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            if condition(message) { return message }
        }
    }
}
