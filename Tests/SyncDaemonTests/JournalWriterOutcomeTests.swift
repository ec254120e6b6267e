import CUV
import SyncEngine
import SyncJournal
import Testing

@testable import SyncDaemon

/// The journal writer reports what became of a commit and never ends the process itself: the
/// daemon decides (an uncertain flush stops a daemon on its own file; a shared log settles it).
@Suite struct JournalWriterOutcomeTests {
    private func outcome(of error: JournalError) throws -> String {
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        defer { loop.deallocate() }
        #expect(uv_loop_init(loop) == 0)
        defer { uv_loop_close(loop) }
        let writer = JournalWriter(
            journal: FailingJournal(error), loop: loop, durableVersion: 0, lastSnapshotVersion: 0,
            snapshots: .every(1000, from: .empty), inlineCommitLimit: 8,
            logger: Logger(label: "test", minimumLevel: .error, forJournal: false))
        let entry = JournalEntry(
            version: 1, name: "add", payload: Array("{}".utf8), acceptedAt: 0, peerUID: nil, peerPID: nil)
        #expect(
            writer.startNextJob(entries: [entry], appliedState: StateEncoding(1), appliedLedger: DispatchLedger())
                == .ranInline)
        #expect(writer.durableVersion == 0)
        let seen = writer.takeFinished().outcomes.map { outcome in
            switch outcome {
            case .durable: "durable"
            case .failed(let version, _): "failed at \(version)"
            case .uncertain(let version, let reason): "uncertain at \(version): \(reason)"
            case .overtaken: "overtaken"
            case .rewritten: "rewritten"
            }
        }
        #expect(writer.takeFinished().outcomes.isEmpty)
        return try #require(seen.count == 1 ? seen[0] : nil)
    }

    @Test func anUncertainFlushIsReportedNotExited() throws {
        #expect(try outcome(of: .uncertain(path: "/nowhere/journal.sqlite3", reason: "EIO")) == "uncertain at 0: EIO")
    }

    @Test func aFailedWriteIsReportedAsFailed() throws {
        #expect(try outcome(of: .storage(path: "/nowhere", operation: "writing", reason: "ENOSPC")) == "failed at 0")
    }
}
