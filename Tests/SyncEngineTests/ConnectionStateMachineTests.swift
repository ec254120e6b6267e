import Testing

@testable import SyncEngine

/// A connection's lifecycle without a socket: each transition's new state and the effects it
/// asks the connection to perform, including the ones it must not ask for twice. (Transitions
/// are mutating, so each result is taken before `#expect` looks at it.)
@Suite struct ConnectionStateMachineTests {
    private typealias Machine = ConnectionStateMachine
    private typealias Effects = ConnectionStateMachine.Effects
    private let soft = 1000
    private let hard = 5000

    private func fresh() -> Machine { Machine(softQueueLimit: soft, hardQueueLimit: hard) }

    private func reading() -> Machine {
        var machine = fresh()
        _ = machine.startReading()
        return machine
    }

    @Test func aConnectionGreetsThenServesAndStartsReadingOnce() {
        var machine = fresh()
        #expect(machine.state == .greeting(.stopped))
        #expect(machine.isOpen && !machine.isGreeted && !machine.isClosed)

        let started = machine.startReading()
        let startedAgain = machine.startReading()
        #expect(started == Effects(startReading: true))
        #expect(startedAgain == .none, "already reading")
        machine.greet()
        #expect(machine.state == .serving(.reading) && machine.isGreeted)
        machine.greet()
        #expect(machine.state == .serving(.reading), "a second hello changes nothing")
    }

    @Test func queuedBytesAskForOneFlushPerPass() {
        var machine = reading()
        let first = machine.didQueue(replyByteCount: 10, queuedByteCount: 10)
        let second = machine.didQueue(replyByteCount: 20, queuedByteCount: 20)
        let canWrite = machine.beginFlush()
        let flushed = machine.didFlush(wroteNothing: false, queuedByteCount: 20)
        let nextPass = machine.didQueue(replyByteCount: 30, queuedByteCount: 30)

        #expect(first == Effects(scheduleFlush: true))
        #expect(second == .none, "already asked for in this pass")
        #expect(canWrite)
        #expect(flushed == .none, "still reading")
        #expect(nextPass == Effects(scheduleFlush: true))
    }

    @Test func aQueuePastTheSoftLimitPausesReadingUntilAFlushLeavesHalfOfIt() {
        var machine = reading()
        let paused = machine.didQueue(replyByteCount: 0, queuedByteCount: soft + 1)
        #expect(paused == Effects(stopReading: true, scheduleFlush: true))
        #expect(machine.state == .greeting(.stopped))

        _ = machine.beginFlush()
        let notEnough = machine.didFlush(wroteNothing: false, queuedByteCount: soft / 2 + 1)
        let queuedMore = machine.didQueue(replyByteCount: 0, queuedByteCount: soft + 2)
        _ = machine.beginFlush()
        let resumed = machine.didFlush(wroteNothing: false, queuedByteCount: soft / 2)

        #expect(notEnough == .none, "not drained enough")
        #expect(queuedMore == Effects(scheduleFlush: true), "already paused")
        #expect(resumed == Effects(startReading: true))
        #expect(machine.state == .greeting(.reading))
    }

    @Test func repliesPastTheHardLimitCloseASlowConsumerOnce() {
        var machine = reading()
        machine.greet()
        let closed = machine.didQueue(replyByteCount: hard + 1, queuedByteCount: hard + 1)
        #expect(closed == Effects(close: .slowConsumer(limit: hard)))
        #expect(machine.state == .closed(.slowConsumer(limit: hard)))
        #expect(!machine.isOpen && !machine.isGreeted && machine.isClosed)

        let queuedAfter = machine.didQueue(replyByteCount: hard + 2, queuedByteCount: hard + 2)
        let closedAgain = machine.close(.readFailed(SocketError(code: -5, name: "EIO")))
        let canWrite = machine.beginFlush()
        let started = machine.startReading()
        let drained = machine.drain(.shutdown)

        #expect(queuedAfter == .none)
        #expect(closedAgain == .none, "told once, for the first reason")
        #expect(!canWrite, "a closed connection writes nothing")
        #expect(started == .none && drained == .none)
        #expect(machine.state == .closed(.slowConsumer(limit: hard)))
    }

    @Test func drainingWritesTheQueueThenCloses() {
        var machine = reading()
        let drained = machine.drain(.handshakeRefused)
        #expect(drained == Effects(stopReading: true, scheduleFlush: true))
        #expect(machine.state == .draining(.handshakeRefused))
        #expect(!machine.isOpen && !machine.isClosed, "no frames, no new output, the socket still writes")

        let drainedAgain = machine.drain(.shutdown)
        let queued = machine.didQueue(replyByteCount: 10, queuedByteCount: 10)
        let ended = machine.endInput(.byServer)
        let canWrite = machine.beginFlush()
        let wrote = machine.didFlush(wroteNothing: false, queuedByteCount: 0)
        _ = machine.beginFlush()
        let written = machine.didFlush(wroteNothing: true, queuedByteCount: 0)

        #expect(drainedAgain == .none, "the first reason stays")
        #expect(queued == .none && ended == .none)
        #expect(canWrite)
        #expect(wrote == .none, "a write was still in flight")
        #expect(written == Effects(close: .handshakeRefused))
        #expect(machine.state == .closed(.handshakeRefused))
    }

    @Test func aConnectionNotReadingYetDrainsWithoutStoppingARead() {
        var machine = fresh()
        let drained = machine.drain(.peerRefused)
        let started = machine.startReading()
        #expect(drained == Effects(scheduleFlush: true))
        #expect(started == .none, "a refused peer is never read")
    }

    @Test func endedInputIsNeverReadAgainButRepliesGoOut() {
        var machine = reading()
        machine.greet()
        let ended = machine.endInput(.byClient)
        #expect(ended == Effects(stopReading: true))
        #expect(machine.state == .serving(.ended(.byClient)) && machine.clientEndedInput)

        let endedByServer = machine.endInput(.byServer)
        let queued = machine.didQueue(replyByteCount: 10, queuedByteCount: 10)
        _ = machine.beginFlush()
        let flushed = machine.didFlush(wroteNothing: true, queuedByteCount: 0)
        let started = machine.startReading()
        #expect(endedByServer == .none && machine.clientEndedInput, "the client's end stays")
        #expect(queued == Effects(scheduleFlush: true))
        #expect(flushed == .none, "no resumed reading, no close")
        #expect(started == .none)

        let drained = machine.drain(.endOfInput)
        #expect(drained == Effects(scheduleFlush: true), "nothing to stop")
        #expect(!machine.clientEndedInput, "draining, no longer open")
    }

    @Test func theServerEndingInputIsNotTheClientFinishing() {
        var machine = fresh()
        let ended = machine.endInput(.byServer)
        let queued = machine.didQueue(replyByteCount: 0, queuedByteCount: 0)
        _ = machine.beginFlush()
        let flushed = machine.didFlush(wroteNothing: true, queuedByteCount: 0)

        #expect(ended == .none, "not reading: nothing to stop")
        #expect(queued == Effects(scheduleFlush: true))
        #expect(flushed == .none)
        #expect(machine.state == .greeting(.ended(.byServer)) && !machine.clientEndedInput)
    }

    @Test func closingFromAnyStateButClosedTellsOnce() {
        let reason = CloseReason.writeFailed(SocketError(code: -32, name: "EPIPE"))
        var serving = reading()
        serving.greet()
        var draining = reading()
        _ = draining.drain(.shutdown)
        var ended = reading()
        _ = ended.endInput(.byClient)
        for var machine in [fresh(), reading(), serving, draining, ended] {
            let before = machine.state
            let closed = machine.close(reason)
            let closedAgain = machine.close(.loopEnded)
            #expect(closed == Effects(close: reason), "from \(before)")
            #expect(closedAgain == .none, "from \(before)")
            #expect(machine.state == .closed(reason))
        }
    }
}
