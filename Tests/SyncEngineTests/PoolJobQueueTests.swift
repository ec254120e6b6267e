import Testing

@testable import SyncEngine

/// At most a few rebuilds of past versions run at once; a bounded number wait, in order; one
/// more is refused.
@Suite struct PoolJobQueueTests {
    @Test func runsUpToTheLimitQueuesInOrderAndRefusesBeyond() {
        var queue = PoolJobQueue(concurrencyLimit: 2, waitingLimit: 2)
        var started: [Int] = []
        for rebuild in 1...4 {
            #expect(queue.admit { started.append(rebuild) }, "rebuild \(rebuild) is admitted")
        }
        #expect(started == [1, 2], "two run, two wait")
        #expect(queue.running == 2)
        #expect(!queue.admit { started.append(5) }, "a fifth is refused")
        queue.finished()?()
        #expect(started == [1, 2, 3])
        #expect(queue.running == 2)
        #expect(queue.admit { started.append(6) }, "a place in the queue is free again")
        queue.finished()?()
        queue.finished()?()
        queue.finished()?()
        #expect(started == [1, 2, 3, 4, 6])
        #expect(queue.finished() == nil)
        #expect(queue.running == 0)
    }
}
