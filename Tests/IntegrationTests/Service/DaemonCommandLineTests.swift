import Foundation
import Glibc
import TestSupport
import Testing

/// `todod`'s command line, which is the framework's `DaemonCommand` with one app option.
@Suite(.blocking) struct DaemonCommandLineTests {
    /// Runs todod with `--data-dir DIR/data --socket DIR/s.sock`, then `arguments`, in a fresh DIR.
    private func run(_ arguments: [String]) throws -> (status: Int32, out: String, error: String, directory: String) {
        let directory = try makeTemporaryDirectory()
        let paths = ["--data-dir", directory + "/data", "--socket", directory + "/s.sock"]
        let child = try ChildProcess(Binaries.path("todod"), paths + arguments, outputDirectory: directory)
        let status = try child.waitForExit()
        return (status, child.standardOutput, child.standardError, directory)
    }

    @Test func helpListsTheStandardOptionsTheAppsOwnAndTheDefaults() throws {
        let help = try run(["--help"])
        defer { try? FileManager.default.removeItem(atPath: help.directory) }
        #expect(help.status == 0 && help.error.isEmpty)
        #expect(help.out.hasPrefix("usage: todod [OPTION]...\n\nServes the todo list. "))
        for option in [
            "--socket PATH", "--data-dir DIR", "--postgres CONNINFO", "--log-level LEVEL", "--allow-uid USER",
            "--clear-done-after SECONDS", "--version",
        ] {
            #expect(help.out.contains("\n  \(option)"), "\(option)")
        }
        #expect(help.out.contains("$TODO_SOCKET, else $XDG_RUNTIME_DIR/todo/todod.sock"))
        #expect(help.out.contains("$TODOD_POSTGRES"))
    }

    @Test func versionNamesTheDaemonAndTheProtocol() throws {
        let version = try run(["--version"])
        defer { try? FileManager.default.removeItem(atPath: version.directory) }
        #expect(version.status == 0 && version.out == "todod 0.1.0 (protocol 1)\n")
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option --frobnicate; see todod --help"),
        (
            ["--clear-done-after", "0"],
            "--clear-done-after needs an integer from 1 to 3153600000 (not 0); see todod --help"
        ),
        (["--clear-done-after"], "--clear-done-after needs a value; see todod --help"),
        (["--postgres", "password=hunter2 host"], "--postgres: "),
    ])
    func aBadCommandLineExitsTwoWithItsReasonAndStartsNothing(arguments: [String], message: String) throws {
        let result = try run(arguments)
        defer { try? FileManager.default.removeItem(atPath: result.directory) }
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(!result.error.contains("hunter2"))
        #expect(access(result.directory + "/data", F_OK) != 0)
    }
}
