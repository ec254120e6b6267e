import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.blocking) struct AutostartTests {
    @Test func racingShellsStartExactlyOneDaemonAndEveryAddLands() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/run/todod.sock"
        let environment = ["XDG_STATE_HOME": directory + "/state", "TODO_NO_AUTOSTART": ""]
        let shells = try (1...6).map { n in
            try ChildProcess(
                Binaries.path("todo"), ["--socket", socket, "add", "item \(n)"], environment: environment,
                outputDirectory: directory)
        }
        let statuses = try shells.map { try $0.waitForExit() }
        let started = shells.flatMap { $0.standardError.split(separator: "\n") }.filter {
            $0.contains("started todod (pid ")
        }
        let pid = try #require(started.first.flatMap { Int32($0.split(separator: "pid ")[1].prefix { $0.isNumber }) })
        defer { stop(pid, socket: socket) }
        #expect(statuses == Array(repeating: 0, count: 6))
        #expect(started.count == 1, "\(started)")
        #expect(try daemonPIDs(socket: socket) == [pid])

        let list = try ChildProcess(
            Binaries.path("todo"), ["--socket", socket, "--no-autostart", "list"], outputDirectory: directory)
        #expect(try list.waitForExit() == 0)
        #expect(list.standardOutput.hasSuffix("6 open, 0 done\n"))
        #expect(
            access(directory + "/state/todo/journal.sqlite3", F_OK) == 0, "the daemon used its default data directory")

        #expect(stop(pid, socket: socket), "todod did not stop on SIGTERM")
        try DaemonHarness.requireNoLeftoverHandles(
            in: String(contentsOfFile: directory + "/run/todod.log", encoding: .utf8))
    }

    /// The daemon outlives the `todo` that started it, so it must hold none of the descriptors
    /// `todo` inherited: a caller reading `todo`'s output through a pipe would otherwise wait
    /// for the daemon to exit.
    @Test func theStartedDaemonHoldsNoneOfTheClientsDescriptors() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { for descriptor in ends { close(descriptor) } }
        let socket = directory + "/run/todod.sock"
        let child = try ChildProcess(
            Binaries.path("todo"), ["--socket", socket, "add", "x"],
            environment: ["XDG_STATE_HOME": directory + "/state", "TODO_NO_AUTOSTART": ""],
            outputDirectory: directory)
        #expect(try child.waitForExit() == 0)
        let started = child.standardError.split(separator: "\n").first { $0.contains("started todod (pid ") }
        let pid = try #require(started.flatMap { Int32($0.split(separator: "pid ")[1].prefix { $0.isNumber }) })
        defer { stop(pid, socket: socket) }
        let pipeTarget = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        #expect(!held.isEmpty, "the daemon's descriptors can be read")
        #expect(!held.contains(pipeTarget), "todod holds \(pipeTarget), inherited from the todo that started it")
    }

    @Test func noAutostartSaysHowToStartTheDaemon() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let child = try ChildProcess(
            Binaries.path("todo"), ["--socket", directory + "/todod.sock", "list"],
            environment: ["TODO_NO_AUTOSTART": "1"], outputDirectory: directory)
        #expect(try child.waitForExit() == 3)
        #expect(child.standardError.contains("start it with `todod --socket \(directory)/todod.sock`"))
        #expect(access(directory + "/todod.sock", F_OK) != 0)
    }

    @Test func aSocketDirectoryOthersCanWriteToIsNotTrusted() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        mkdir(directory + "/shared", 0o777)
        chmod(directory + "/shared", 0o777)
        let child = try ChildProcess(
            Binaries.path("todo"), ["--socket", directory + "/shared/todod.sock", "add", "x"],
            environment: ["XDG_STATE_HOME": directory + "/state", "TODO_NO_AUTOSTART": ""], outputDirectory: directory)
        #expect(try child.waitForExit() == 3)
        #expect(child.standardError.contains("\(directory)/shared belongs to another user or others can write to it"))
        #expect(access(directory + "/shared/autostart.lock", F_OK) != 0)
        #expect(try daemonPIDs(socket: directory + "/shared/todod.sock").isEmpty)
    }

    /// The pids of the todod processes serving `socket`.
    private func daemonPIDs(socket: String) throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            guard let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8) else {
                return false
            }
            let words = command.split(separator: "\0")
            return words.first?.hasSuffix("/todod") == true && words.contains(Substring(socket))
        }
    }

    /// Stops a daemon this test did not spawn directly (todo did), by pid, if that pid is still
    /// the daemon serving `socket`: SIGTERM, then SIGKILL after a deadline. Returns whether it
    /// stopped on SIGTERM (or was already gone).
    @discardableResult
    private func stop(_ pid: Int32, socket: String) -> Bool {
        // A zombie (exited, not yet reaped by its new parent) has no command line: not serving.
        let isServing = { (try? daemonPIDs(socket: socket))?.contains(pid) == true }
        guard isServing() else { return true }
        kill(pid, SIGTERM)
        for _ in 0..<500 where isServing() { usleep(10_000) }
        guard isServing() else { return true }
        kill(pid, SIGKILL)
        return false
    }
}
