import CUV
import Foundation
import Glibc
import SyncEngine
import SyncLock
import TestSupport
import Testing

@testable import SyncDaemon

/// The listener's socket file, on a private loop: mode 0600 whatever the umask lets through,
/// removed at close, without touching the umask of the process's other threads; a bind that
/// fails says where and why and leaves nothing behind.
@Suite(.blocking) struct UnixListenerTests {
    @Test func theSocketIsTheOwnersAloneAndGoesAwayAtClose() throws {
        let fixture = try LoopFixture()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/socket"
        let listener = try UnixListener(loop: fixture.loop, source: .path(path), logger: fixture.logger) { _ in }

        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_uid == getuid())
        _ = try WireClient(path: path)

        listener.close()
        #expect(lstat(path, &status) == -1 && errno == ENOENT)
        #expect(LoopShutdown.close(fixture.loop, logger: fixture.logger).isEmpty)
    }

    @Test func aBindThatFailsNamesThePathAndTheCause() throws {
        let fixture = try LoopFixture()
        let path = "/nonexistent-\(getpid())/socket"

        #expect {
            _ = try UnixListener(loop: fixture.loop, source: .path(path), logger: fixture.logger) { _ in }
        } throws: { error in
            "\(error)" == "binding \(path) failed: No such file or directory"
        }
        #expect(LoopShutdown.close(fixture.loop, logger: fixture.logger).isEmpty, "the handle was closed")
    }

    /// Narrowing the umask around `bind` once narrowed the files other threads created
    /// meanwhile: a test's directory came out 0600 and the private PostgreSQL's server could
    /// not enter it. Listeners bound and closed on one thread, files created on another.
    @Test func bindingLeavesTheUmaskOfOtherThreadsAlone() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let probe = directory + "/probe"
        let expectedMode = try Self.modeOfNewFile(at: probe)
        let binds = Self.bindAndClose(at: directory + "/socket", rounds: 300)
        var created = 0
        var narrowed = 0
        repeat {
            if try Self.modeOfNewFile(at: probe) != expectedMode { narrowed += 1 }
            created += 1
        } while !binds.withLock { $0.isFinished }
        let failure = binds.withLock { $0.failure }
        #expect(failure == nil, "\(failure ?? "")")
        #expect(narrowed == 0, "\(narrowed) of \(created) files created beside the binds lost mode bits")
    }

    /// Binds a listener at `socketPath` and closes it, `rounds` times, on a new thread with a
    /// loop of its own; what it holds says when the rounds ended, and why one failed, if one did.
    private static func bindAndClose(at socketPath: String, rounds: Int) -> Locked<(isFinished: Bool, failure: String?)>
    {
        let outcome = Locked<(isFinished: Bool, failure: String?)>((false, nil))
        Thread {
            var failure: String?
            do {
                let fixture = try LoopFixture()
                for _ in 0..<rounds {
                    let listener = try UnixListener(
                        loop: fixture.loop, source: .path(socketPath), logger: fixture.logger
                    ) {
                        _ in
                    }
                    listener.close()
                    uv_run(fixture.loop, UV_RUN_NOWAIT)
                }
                let leftovers = LoopShutdown.close(fixture.loop, logger: fixture.logger)
                if !leftovers.isEmpty { failure = "handles left open: \(leftovers)" }
            } catch {
                failure = "\(error)"
            }
            outcome.withLock { $0 = (true, failure) }
        }.start()
        return outcome
    }

    /// The mode bits of a file created at `path` with mode 0666 (then removed).
    private static func modeOfNewFile(at path: String) throws -> mode_t {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw TestFailure("creating \(path): \(String(cString: strerror(errno)))") }
        defer {
            close(descriptor)
            unlink(path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw TestFailure("fstat \(path)") }
        return status.st_mode & 0o777
    }
}
