import Glibc
import SyncIntegrationTesting
import Testing

/// `boardd --sweep-after DAYS`: the durable schedule archiving done cards, on the real daemon.
@Suite(.blocking) struct ScheduledSweepCommandTests {
    @Test func boarddArchivesADoneCardByItselfAndLeavesTheOthers() throws {
        let daemon = try RunningDaemon.board(arguments: ["--sweep-after", "0"])
        #expect(try daemon.board("add", "still to do").status == 0)
        #expect(try daemon.board("add", "--column", "done", "shipped").status == 0)
        var shown = ""
        for _ in 0..<6000 {
            shown = try daemon.board("show").output
            if shown.hasSuffix("1 archived\n") { break }
            usleep(10_000)
        }
        #expect(shown.hasPrefix("todo (1)\n") && shown.contains("  still to do\n"), "\(shown)")
        #expect(shown.hasSuffix("doing (0)\ndone (0)\n1 archived\n"), "the done card went by itself: \(shown)")
        #expect(daemon.stop() == 0)
    }

    @Test func aSweepAfterOutOfRangeIsAUsageError() throws {
        let refused = try Programs.run("boardd", ["--sweep-after", "-1"])
        #expect(refused.status == 2 && refused.errors.contains("--sweep-after"), "\(refused.errors)")
    }
}
