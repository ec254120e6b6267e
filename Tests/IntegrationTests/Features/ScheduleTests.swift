import Foundation
import TestSupport
import Testing

/// Durable schedules in the real `todod` (`--clear-done-after`): an item due while the daemon
/// was down, stopped or killed, goes once it is back, exactly once.
@Suite(.blocking) struct ScheduleTests {
    @Test(arguments: ["crash", "stop"])
    func anItemDueWhileTheDaemonWasDownGoesOnceItIsBackExactlyOnce(how: String) throws {
        let daemon = try DaemonHarness(arguments: ["--clear-done-after", "1"])
        #expect(try daemon.todo("add", "expires").status == 0)
        #expect(try daemon.todo("add", "stays").status == 0)
        #expect(try daemon.todo("done", "1").status == 0)
        if how == "crash" {
            try daemon.crash()
        } else {
            #expect(try daemon.stop() == 0)
        }
        // Down for longer than the retention: the removal falls due while nothing runs.
        usleep(1_500_000)
        try daemon.start()
        try eventually("the item due while the daemon was down was not removed") {
            try daemon.todo("list").output.contains("expires") ? nil : true
        }
        let log = try daemon.todo("log", "--json")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.output.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["add", "add", "complete", "remove"], "removed once")
        #expect(try daemon.todo("list").output.contains("stays"))
        #expect(try daemon.stop() == 0)
    }
}
