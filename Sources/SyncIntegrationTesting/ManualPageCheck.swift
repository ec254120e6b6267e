import Foundation
import Glibc
import ProcessSpawn

/// A manual page as `man` would show it: rendered by `groff -man -Tutf8` with every warning
/// on, so a test can assert that a generated page has none, as plain text (no bold or
/// underline sequences), so a test can look for what it says.
public enum ManualPageCheck {
    /// Renders `roff` with `groff` (found on `PATH`); the run's output is the page as text,
    /// its errors groff's warnings.
    public static func render(_ roff: String) throws(IntegrationFailure) -> ProgramRun {
        let directory = try BuiltPrograms.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = directory + "/page.roff"
        guard FileManager.default.createFile(atPath: page, contents: Data(roff.utf8)) else {
            throw IntegrationFailure("cannot write \(page)")
        }
        guard let groff = executable(named: "groff") else {
            throw IntegrationFailure("no groff on PATH (apt-get install groff-base)")
        }
        let pid: Int32
        do {
            pid = try Spawn.start(
                groff, ["-man", "-Tutf8", "-ww", "-P-c", "-P-b", "-P-u", page], environment: [:],
                stdoutPath: directory + "/out",
                stderrPath: directory + "/err")
        } catch {
            throw IntegrationFailure(error.description)
        }
        let status = BuiltPrograms.waitForExit(pid)
        return ProgramRun(
            status: status, output: BuiltPrograms.contents(of: directory + "/out"),
            errors: BuiltPrograms.contents(of: directory + "/err"))
    }

    /// The first executable `name` in a directory of `PATH`.
    private static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
