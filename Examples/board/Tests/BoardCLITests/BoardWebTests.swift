import Foundation
import Glibc
import SyncIntegrationTesting
import Testing

/// `board web`: the board's own page through SyncWeb's gateway, checked at the protocol level
/// by the todo package's Python client (Tests/IntegrationTests/Web/Scripts).
@Suite(.blocking) struct BoardWebTests {
    /// The todo package's web test scripts, two directories above this package.
    private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Tests/IntegrationTests/Web/Scripts").standardized.path

    @Test func theBoardsPageGetsTheBoardAndAMoveDispatches() throws {
        let daemon = try RunningDaemon.board()
        #expect(try daemon.board("add", "through the web").status == 0)
        let web = Process()
        web.executableURL = URL(fileURLWithPath: BuiltPrograms.path("board"))
        web.arguments = ["--socket", daemon.socketPath, "web", "--listen", "127.0.0.1:0"]
        web.environment = ProcessInfo.processInfo.environment.merging(["BOARD_NO_AUTOSTART": "1"]) { $1 }
        let output = Pipe()
        web.standardInput = FileHandle.nullDevice
        web.standardOutput = output
        web.standardError = FileHandle.nullDevice
        try web.run()
        defer { _ = Self.stop(web) }
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed += chunk
        }
        let url = String(decoding: printed, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        #expect(url.hasPrefix("http://127.0.0.1:"), "board web printed \(url)")

        let check = try python("board_check.py", [url, "through the web"])
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        #expect(check.output.contains("ok: the move is acked"))
        #expect(try daemon.board("show").output.contains("through the web"))
        #expect(Self.stop(web) == 0)
    }

    /// Stops `process` with SIGTERM, if it runs, and returns its exit status.
    private static func stop(_ process: Process) -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs Debian's python3 on the script `name` with `arguments`, to its end.
    private func python(_ name: String, _ arguments: [String]) throws -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-B", Self.scripts + "/" + name] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONPATH": Self.scripts]) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramRun(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }
}
