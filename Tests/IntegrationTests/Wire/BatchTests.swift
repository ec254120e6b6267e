import SyncClient
import TestSupport
import Testing
import TodoDomain

/// `batch` against the real `todod`, through SyncClient: all or nothing, one ack, one journal
/// transaction, and what a crash right after the ack keeps.
@Suite struct BatchTests {
    @Test func aBatchAppliesTogetherOrNotAtAll() async throws {
        let daemon = try await DaemonHarness.started()
        let client = try await SyncClient.connect(
            socketPath: daemon.socketPath, clientName: "tests/1", reconnect: .never)
        let version = try await client.dispatch(batch: [
            AddItem(text: "milk"), AddItem(text: "eggs"), CompleteItem(number: 1),
        ])
        #expect(version == 3)
        await #expect(throws: SyncClientError.self) {
            try await client.dispatch(batch: [AddItem(text: "bread"), CompleteItem(number: 9)])
        }
        client.close()
        try await daemon.crash()
        try await daemon.start()
        let list = try await daemon.todo("list")
        #expect(list.output.contains("milk") && list.output.contains("eggs") && !list.output.contains("bread"))
        #expect(try await daemon.todo("status").output.contains("version: 3"), "the refused batch left nothing")
        #expect(try await daemon.stop() == 0)
    }
}
