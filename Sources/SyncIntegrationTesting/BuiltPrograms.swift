import Foundation
import Glibc
import ProcessSpawn
import SyncStore

/// The executables `swift build` made for the package under test, found beside the test
/// binary, and how to run one to its end.
///
/// A program runs with standard input from `/dev/null` and its output in files (not pipes), so
/// a daemon it starts (`DaemonAutostart`) holds nothing the test waits on; its signal mask is
/// cleared, so SIGTERM reaches it.
public enum BuiltPrograms {
    /// The directory holding the built executable `name` (the test binary's, or one above).
    public static func path(_ name: String) -> String {
        let test =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        while directory.path != "/"
            && !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name).path
    }

    /// What a client of `identity` runs with in a test unless the test says otherwise: no
    /// socket from the test's own environment, and no autostart.
    public static func clientEnvironment(of identity: AppIdentity) -> [String: String] {
        [identity.socketVariable: "", identity.noAutostartVariable: "1"]
    }

    /// Runs `name` with `arguments` to its end, with `environment` set over the test's, its
    /// output kept in files in `directory` (a new private one when nil). Blocks the calling
    /// thread: call it from a test marked as blocking.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil
    ) throws(IntegrationFailure) -> ProgramRun {
        let owned = directory == nil
        let directory = try BuiltPrograms.directory(directory)
        defer { if owned { try? FileManager.default.removeItem(atPath: directory) } }
        let stamp = UInt32.random(in: 0...UInt32.max)
        let outputPath = "\(directory)/\(name)-\(stamp).out"
        let errorPath = "\(directory)/\(name)-\(stamp).err"
        let pid: Int32
        do {
            pid = try Spawn.start(
                path(name), arguments, environment: environment, stdoutPath: outputPath, stderrPath: errorPath)
        } catch {
            throw IntegrationFailure(error.description)
        }
        let status = waitForExit(pid)
        return ProgramRun(status: status, output: contents(of: outputPath), errors: contents(of: errorPath))
    }

    /// A new private directory for a test: in /dev/shm when it is writable, has room for many
    /// tests and lets programs run from it, else under /tmp; short either way, so socket paths
    /// fit in `sun_path`. In memory, the files a suite makes by the thousand (journals, sockets,
    /// database clusters) cost the kernel a fraction of what they cost on a disk, and syncing
    /// them costs nothing; a test that needs a disk's behaviour makes its own directory.
    public static func temporaryDirectory() throws(IntegrationFailure) -> String {
        if hasRoomInMemory(), let made = makeDirectory("/dev/shm/sync-test.XXXXXX") { return made }
        guard let made = makeDirectory("/tmp/sync-test.XXXXXX") else {
            throw IntegrationFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        return made
    }

    /// Whether /dev/shm is mounted writable and not `noexec`, with 1 GiB free.
    private static func hasRoomInMemory() -> Bool {
        var memory = statvfs()
        guard statvfs("/dev/shm", &memory) == 0 else { return false }
        // ST_RDONLY and ST_NOEXEC, which Swift does not import.
        let readOnly: UInt = 1
        let noExecution: UInt = 8
        let roomForMany: UInt = 1 << 30
        return memory.f_flag & (readOnly | noExecution) == 0 && memory.f_frsize > 0
            && memory.f_bavail >= roomForMany / memory.f_frsize
    }

    /// `mkdtemp(template)`: the new directory's path, or `nil`.
    private static func makeDirectory(_ template: String) -> String? {
        var template = Array(template.utf8CString)
        return mkdtemp(&template).map { String(cString: $0) }
    }

    /// `given`, else a new private directory.
    static func directory(_ given: String?) throws(IntegrationFailure) -> String {
        guard let given else { return try temporaryDirectory() }
        return given
    }

    /// Waits for child `pid` to end and reaps it; its exit status, or 128 + the signal.
    static func waitForExit(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The file at `path` as text, empty if it cannot be read.
    static func contents(of path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
