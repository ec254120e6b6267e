import Foundation
import TestSupport
import Testing

@testable import IntegrationTestSupport

/// The protocol conformance kit (conformance/) run as a client author runs it: its runner
/// starts the built todod for each case on a private socket, drives the raw-frame cases
/// itself and the client cases through an adapter, SyncClient's and the Python client's.
@Suite(.blocking) struct ConformanceTests {
    private let runner = packageRoot.appendingPathComponent("conformance/run").path

    @Test func theDaemonAndSyncClientPassEveryCase() throws {
        let run = try kit(["--adapter", Binaries.path("sync-conformance-adapter")])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains(" 0 failed, 0 skipped"), "\(run.output)")
        #expect(passed(run.output) >= 120, "\(run.output)")
    }

    @Test func thePythonClientPassesEveryClientCase() throws {
        let adapter = "/usr/bin/python3 -m sync_client.conformance_adapter"
        let run = try kit(["--adapter", adapter, "--only", "client"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains(" 0 failed"), "\(run.output)")
        #expect(passed(run.output) >= 15, "\(run.output)")
    }

    @Test func aFailingCaseNamesItselfAndShowsBothFrames() throws {
        let cases = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cases) }
        let wrong = #"""
            {"cases": [{"name": "pong-with-the-wrong-id", "section": "ping → pong", "steps": [
              {"greet": "a"}, {"send": {"type": "ping", "id": 2}}, {"expect": {"type": "pong", "id": 3}}]}]}
            """#
        try wrong.write(toFile: cases + "/wrong.json", atomically: true, encoding: .utf8)
        let run = try kit(["--cases", cases])
        #expect(run.status == 1)
        #expect(
            run.output.contains("FAIL pong-with-the-wrong-id (wrong.json, section \"ping → pong\")"), "\(run.output)")
        #expect(run.output.contains(#"expected: {"id": 3, "type": "pong"}"#), "\(run.output)")
        #expect(run.output.contains(#"actual:   {"id": 2, "type": "pong"}"#), "\(run.output)")
        #expect(run.output.contains("sections without a case: Transport;"), "\(run.output)")
        #expect(run.output.contains("0 passed, 1 failed, 0 skipped"), "\(run.output)")
    }

    @Test func aCaseNamingNoSectionOfTheProtocolIsRefusedBeforeAnythingRuns() throws {
        let cases = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: cases) }
        let unnamed = #"{"cases": [{"name": "x", "section": "Telepathy", "steps": [{"greet": "a"}]}]}"#
        try unnamed.write(toFile: cases + "/unnamed.json", atomically: true, encoding: .utf8)
        let run = try kit(["--cases", cases])
        #expect(run.status == 2)
        #expect(run.error.contains("unnamed.json, case 1 (x): no section 'Telepathy' in PROTOCOL.md"), "\(run.error)")
    }

    /// Runs the kit against the built todod; generous deadline, only against a hang.
    private func kit(_ arguments: [String]) throws -> CommandResult {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = try ChildProcess(
            "/usr/bin/python3", [runner, "--daemon", Binaries.path("todod")] + arguments,
            environment: [
                "PYTHONPATH": packageRoot.appendingPathComponent("clients/python").path,
                "PYTHONDONTWRITEBYTECODE": "1", "TODO_SOCKET": "",
            ], outputDirectory: directory)
        let status = try process.waitForExit(timeout: 600)
        return CommandResult(status: status, output: process.standardOutput, error: process.standardError)
    }

    /// N of the closing line `N passed, M failed, K skipped`.
    private func passed(_ output: String) -> Int {
        let line = output.split(separator: "\n").last { $0.contains(" passed, ") } ?? ""
        return Int(line.split(separator: " ").first ?? "") ?? 0
    }
}
