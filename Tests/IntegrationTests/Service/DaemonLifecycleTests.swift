import Foundation
import Glibc
import SyncProtocol
import TestSupport
import Testing

@testable import IntegrationTestSupport

@Suite(.blocking) struct DaemonLifecycleTests {
    @Test func createsAPrivateDirectoryAndSocket() throws {
        let daemon = try DaemonHarness(socketName: "run/todod.sock")
        var status = stat()
        #expect(stat(daemon.socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat(daemon.directory + "/run", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(stat(daemon.dataDirectory, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(stat(daemon.dataDirectory + "/journal.sqlite3", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test func doesNotCreateMissingParentsOfTheSocketDirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try ChildProcess(
            Binaries.path("todod"),
            ["--socket", directory + "/typo/run/todod.sock", "--data-dir", directory + "/data"],
            outputDirectory: directory)
        #expect(try daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("creating the socket directory \(directory)/typo/run failed"))
        #expect(access(directory + "/typo", F_OK) != 0)
    }

    @Test func refusesASocketDirectoryOthersCanWriteTo() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        mkdir(directory + "/shared", 0o777)
        chmod(directory + "/shared", 0o777)
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", directory + "/shared/todod.sock", "--data-dir", directory + "/data"],
            outputDirectory: directory)
        #expect(try daemon.waitForExit() == 1)
        #expect(
            daemon.standardError.contains(
                "refusing to put the socket in \(directory)/shared: it is writable by other users"))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalSaysByeToClientsRemovesTheSocketAndExitsZero(signal: Int32) throws {
        let daemon = try DaemonHarness()
        let client = try daemon.greetedClient()
        daemon.process.send(signal)
        #expect(try daemon.waitForStop() == 0)
        let bye = try client.receive()
        #expect(bye.type == "bye" && bye["reason"] as? String == "the daemon is shutting down")
        #expect(try client.readsEndOfStream())
        #expect(access(daemon.socketPath, F_OK) != 0)
        #expect(daemon.process.standardError.contains("shutting down"))
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefused() throws {
        let daemon = try DaemonHarness()
        let second = try ChildProcess(
            Binaries.path("todod"), ["--socket", daemon.socketPath, "--data-dir", daemon.directory + "/other"],
            outputDirectory: daemon.directory)
        #expect(try second.waitForExit() == 1)
        #expect(second.standardError.contains("another daemon is already listening on \(daemon.socketPath)"))
        // The first one is untouched and still serving on its socket.
        try daemon.greetedClient().expectOnlyPong()
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todod.sock"
        // A socket file nobody listens on, as a crashed daemon leaves behind.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = SocketPath.withAddress(of: path) { bind(descriptor, $0, $1) }
        close(descriptor)
        #expect(bound == 0)

        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", path, "--data-dir", directory + "/data"], outputDirectory: directory)
        defer { daemon.send(SIGKILL) }
        try eventually("todod did not replace the stale socket: \(daemon.standardError)") {
            DaemonHarness.isAnswering(path) ? true : nil
        }
        try WireClient(path: path).hello()
        #expect(daemon.standardError.contains("replaced the stale socket \(path)"))
    }

    @Test func somethingElseAtTheSocketPathIsLeftAloneAndRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todod.sock"
        try "precious".write(toFile: path, atomically: false, encoding: .utf8)
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--socket", path, "--data-dir", directory + "/data"], outputDirectory: directory)
        #expect(try daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("exists and is not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test(arguments: [
        ["--max-frame", "0"], ["--max-frame"], ["--bogus"], ["--socket", String(repeating: "s", count: 120)],
    ])
    func badOptionsAreRefusedClearly(arguments: [String]) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try ChildProcess(
            Binaries.path("todod"), ["--data-dir", directory + "/data"] + arguments, outputDirectory: directory)
        #expect(try daemon.waitForExit() != 0)
        #expect(daemon.standardError.contains("todod error: "))
    }
}
