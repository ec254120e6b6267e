import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// The Python client in clients/python (the generic `sync_client` and todo's `TodoClient`),
/// written from docs/PROTOCOL.md, run against the real daemon, and installed as a package.
@Suite(.blocking) struct PythonClientTests {
    private let clients = packageRoot.appendingPathComponent("clients/python").path

    @Test func thePythonClientTalksToTheDaemon() throws {
        let daemon = try DaemonHarness()
        let python = try ChildProcess(
            "/usr/bin/python3", ["-m", "unittest", "-v", "test_todo_client", "test_sync_client"],
            environment: [
                "TODO_SOCKET": daemon.socketPath, "PYTHONPATH": clients, "PYTHONDONTWRITEBYTECODE": "1",
                "SYNC_TEST_APP": "todo",
            ], outputDirectory: daemon.directory)
        #expect(try python.waitForExit(timeout: 120) == 0, "\(python.standardError)")
        #expect(python.standardError.contains("Ran 15 tests"), "\(python.standardError)")
    }

    /// `pip install` with no network: the build backend (Debian's setuptools) and `jsonpatch`
    /// come from the system, into a venv that sees them; then the package imports from
    /// anywhere. A copy is installed, so the build leaves nothing in the checkout.
    @Test func thePackageInstallsWithoutANetwork() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: clients, toPath: directory + "/src")
        let steps: [(String, [String])] = [
            ("/usr/bin/python3", ["-m", "venv", "--system-site-packages", directory + "/venv"]),
            (
                directory + "/venv/bin/pip",
                ["install", "--no-index", "--no-build-isolation", "--disable-pip-version-check", directory + "/src"]
            ),
            (
                directory + "/venv/bin/python",
                ["-I", "-c", "import sync_client, todo_client; print(sync_client.Client.connect.__doc__ is not None)"]
            ),
        ]
        var lastOutput = ""
        for (program, arguments) in steps {
            let step = try ChildProcess(
                program, arguments, environment: ["PIP_NO_CACHE_DIR": "1", "PYTHONDONTWRITEBYTECODE": "1"],
                outputDirectory: directory)
            #expect(try step.waitForExit(timeout: 300) == 0, "\(program): \(step.standardOutput)\(step.standardError)")
            lastOutput = step.standardOutput
        }
        // The installed package, imported from outside the source tree, is the documented one.
        #expect(lastOutput == "True\n")
    }
}
