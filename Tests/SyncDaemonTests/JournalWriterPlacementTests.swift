import CUV
import Foundation
import SyncEngine
import SyncJournal
import Testing

@testable import SyncDaemon

/// Where the journal writer runs a job: a small commit on the loop thread, except a job started
/// right after a job on the thread pool ended (work waited meanwhile: the daemon is under
/// load), which goes to the pool too; once a pass finds nothing waiting, small commits are
/// inline again.
@Suite struct JournalWriterPlacementTests {
    private final class Ends: JournalWriterDelegate {
        var count = 0
        var snapshots = 0
        func journalWriterFinishedJob() { count += 1 }
        func journalWriterEncodedSnapshot() { snapshots += 1 }
    }

    /// Runs `body` with a writer on a new SQLite journal and loop, then removes them.
    private static func withWriter(
        snapshots: SnapshotSchedule, journaling: (SQLiteJournal) -> any Journal = { $0 },
        _ body: (JournalWriter, SQLiteJournal, UnsafeMutablePointer<uv_loop_t>, Ends) throws -> Void
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try SQLiteJournal(path: directory.appendingPathComponent("journal.sqlite3").path)
        try journal.prepareForWriting()
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        defer { loop.deallocate() }
        #expect(uv_loop_init(loop) == 0)
        defer { uv_loop_close(loop) }
        let writer = JournalWriter(
            journal: journaling(journal), loop: loop, durableVersion: 0, lastSnapshotVersion: 0,
            snapshots: snapshots, inlineCommitLimit: 8,
            logger: Logger(label: "test", minimumLevel: .error, forJournal: false))
        let ends = Ends()
        writer.delegate = ends
        try body(writer, journal, loop, ends)
    }

    private static func entry(_ version: UInt64) -> JournalEntry {
        JournalEntry(
            version: version, name: "add", payload: Array("{}".utf8), acceptedAt: 0, peerUID: nil, peerPID: nil)
    }

    @Test func onlyTheJobAfterAPoolJobGoesToThePool() throws {
        try Self.withWriter(snapshots: .every(1000, from: .empty)) { writer, _, loop, ends in
            var read: [JournalEntry]?
            writer.read(after: 0, limit: 10) { read = try? $0.get() }

            #expect(
                writer.startNextJob(entries: [], appliedState: StateEncoding(0), appliedLedger: DispatchLedger())
                    == .queued)
            uv_run(loop, UV_RUN_DEFAULT)
            #expect(ends.count == 1)
            for deliver in writer.takeFinished().reads { deliver() }
            #expect(read == [])

            #expect(
                writer.startNextJob(
                    entries: [Self.entry(1)], appliedState: StateEncoding(1), appliedLedger: DispatchLedger())
                    == .queued)
            uv_run(loop, UV_RUN_DEFAULT)
            #expect(ends.count == 2)
            #expect(writer.durableVersion == 1)
            _ = writer.takeFinished()
            // The pass after it has nothing waiting: the load is over.
            #expect(
                writer.startNextJob(entries: [], appliedState: StateEncoding(1), appliedLedger: DispatchLedger())
                    == .none)

            for version in UInt64(2)...4 {
                #expect(
                    writer.startNextJob(
                        entries: [Self.entry(version)], appliedState: StateEncoding(Int(version)),
                        appliedLedger: DispatchLedger())
                        == .ranInline)
            }
            #expect(writer.durableVersion == 4)
            #expect(writer.takeFinished().outcomes.count == 3)
            #expect(ends.count == 2)
        }
    }

    /// A commit that crosses a multiple of the snapshot interval is durable (here: inline, in
    /// the same pass) before its snapshot is encoded, on the pool; a later job saves it.
    @Test func aSnapshotIsEncodedAfterItsCommitAndSavedByTheNextJob() throws {
        try Self.withWriter(snapshots: .every(2, from: .empty)) { writer, journal, loop, ends in

            #expect(
                writer.startNextJob(
                    entries: [Self.entry(1)], appliedState: StateEncoding(1), appliedLedger: DispatchLedger())
                    == .ranInline)
            #expect(
                writer.startNextJob(
                    entries: [Self.entry(2)], appliedState: StateEncoding(2), appliedLedger: DispatchLedger())
                    == .ranInline)
            #expect(writer.durableVersion == 2, "durable before any snapshot was encoded")
            #expect(try journal.latestSnapshot() == nil)
            uv_run(loop, UV_RUN_DEFAULT)
            #expect(ends.snapshots == 1)
            #expect(
                writer.startNextJob(entries: [], appliedState: StateEncoding(2), appliedLedger: DispatchLedger())
                    == .queued)
            uv_run(loop, UV_RUN_DEFAULT)
            _ = writer.takeFinished()
            let saved = try #require(try journal.latestSnapshot())
            #expect(saved.version == 2)
            #expect(String(decoding: saved.state, as: UTF8.self) == "2")
            #expect(
                writer.startNextJob(entries: [], appliedState: StateEncoding(2), appliedLedger: DispatchLedger())
                    == .none)
        }
    }

    /// A schedule that follows the snapshots' size hears each snapshot's size from the writer.
    /// 40 actions of 5 bytes ("add", "{}") with snapshots due every 2 versions: 20 snapshots on
    /// a fixed schedule. Following the size, a snapshot (the state "2", 1 byte, beside the empty
    /// ledger's 14) waits for 60 bytes of actions: due at 2, then at 14 (12 actions), then at 28
    /// (the snapshot "14" is 16 bytes: 13 actions, to 27, and 28 is the next multiple).
    @Test func aScheduleFollowingTheSizeHearsEachSnapshotsSize() throws {
        func snapshots(_ schedule: SnapshotSchedule) throws -> Int {
            var count = 0
            try Self.withWriter(snapshots: schedule) { writer, _, loop, ends in
                for version in UInt64(1)...40 {
                    writer.startNextJob(
                        entries: [Self.entry(version)], appliedState: StateEncoding(Int(version)),
                        appliedLedger: DispatchLedger())
                    uv_run(loop, UV_RUN_DEFAULT)
                    _ = writer.takeFinished()
                }
                #expect(writer.durableVersion == 40)
                count = ends.snapshots
            }
            return count
        }
        #expect(DispatchLedger().encoded().count == 14)
        #expect(try snapshots(.every(2, from: .empty)) == 20)
        #expect(try snapshots(.followingSize(2, maximumSpacing: 1000, from: .empty)) == 3)
    }

    /// A shared log that refuses every snapshot keeps every action, and the next snapshot is
    /// spaced as if the refused one were saved: a refusing database is asked as often as a
    /// healthy one (3 times in 40 versions), not at every multiple of the interval (20).
    @Test func snapshotsASharedLogRefusesAreSpacedAsIfSaved() throws {
        var refusing: SnapshotRefusingLog?
        let refusingLog = { (journal: SQLiteJournal) -> any Journal in
            let log = SnapshotRefusingLog(keepingEntriesIn: journal)
            refusing = log
            return log
        }
        let schedule = SnapshotSchedule.followingSize(2, maximumSpacing: 1000, from: .empty)
        try Self.withWriter(snapshots: schedule, journaling: refusingLog) { writer, journal, loop, ends in
            for version in UInt64(1)...40 {
                writer.startNextJob(
                    entries: [Self.entry(version)], appliedState: StateEncoding(Int(version)),
                    appliedLedger: DispatchLedger())
                uv_run(loop, UV_RUN_DEFAULT)
                #expect(writer.takeFinished().outcomes.allSatisfy { if case .durable = $0 { true } else { false } })
            }
            #expect(writer.durableVersion == 40)
            let lastJournaled = try journal.lastVersion()
            #expect(lastJournaled == 40)
            #expect(ends.snapshots == 3)
        }
        #expect(refusing?.refusedSnapshots == 3)
    }
}
