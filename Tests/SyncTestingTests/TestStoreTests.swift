import SyncStore
import SyncTesting
import Testing

private func makeStore(clock: TestClock = TestClock(now: 5_000)) -> TestStore<CounterApp> {
    TestStore(CounterApp.self, dependencies: StandardDependencies(clock: clock, ids: SequentialIDs()))
}

@Suite struct TestStoreTests {
    @Test func anExpectedMutationPasses() throws {
        let store = makeStore()
        try store.send(Increment(by: 2)) { $0.count = 2 }
        try store.send(Increment()) { $0.count += 1 }
        #expect(store.state.count == 3)
        #expect(store.version == 2)
    }

    @Test func aWrongMutationFailsWithTheDifference() throws {
        let store = makeStore()
        try withKnownIssue {
            try store.send(Increment(by: 2)) { $0.count = 3 }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("- ") && text.contains("\"count\" : 3") && text.contains("\"count\" : 2")
        }
        // The store goes on from the actual state.
        try store.send(Increment()) { $0.count = 3 }
    }

    @Test func aChangeWithoutAnExpectationFails() throws {
        let store = makeStore()
        withKnownIssue {
            try store.send(Increment())
        }
    }

    @Test func aRejectedActionIsThrownAndChangesNothing() throws {
        let store = makeStore()
        try store.send(Increment(by: 10)) { $0.count = 10 }
        #expect(throws: TooLarge()) { try store.send(Increment()) }
        #expect(store.state.count == 10)
        #expect(store.version == 1)
    }

    @Test func acceptanceUsesTheTestClockAndIDs() throws {
        let clock = TestClock(now: 5_000)
        let store = makeStore(clock: clock)
        try store.send(StampNow()) { $0.stamps = [.init(id: "00000000-0000-4000-8000-000000000001", at: 5_000)] }
        clock.advance(by: 250)
        try store.send(StampNow()) { $0.stamps.append(.init(id: "00000000-0000-4000-8000-000000000002", at: 5_250)) }
    }

    @Test func aDispatchedSideEffectsActionsAreReceivedInOrder() async throws {
        let store = makeStore()
        try store.send(Increment(by: 3)) { $0.count = 3 }
        let result = try await store.run(IncrementTwice())
        #expect(result == 3)
        await store.receive(Increment.self) { $0.count = 4 }
        await store.receive(Increment.self) { $0.count = 5 }
        await store.finish()
    }

    @Test func receivingTheWrongTypeFails() async throws {
        let store = makeStore()
        _ = try await store.run(IncrementTwice())
        await withKnownIssue {
            await store.receive(StampNow.self)
        }
        await store.receive(Increment.self) { $0.count = 2 }
        await store.finish()
    }

    @Test func aWrongReceivedMutationFails() async throws {
        let store = makeStore()
        _ = try await store.run(IncrementTwice())
        await withKnownIssue {
            await store.receive(Increment.self) { $0.count = 7 }
        }
        await store.receive(Increment.self) { $0.count = 2 }
        await store.finish()
    }

    @Test func finishFailsOnActionsNotReceived() async throws {
        let store = makeStore()
        _ = try await store.run(IncrementTwice())
        await store.receive(Increment.self) { $0.count = 1 }
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("increment")
        }
    }

    @Test func droppingAStoreWithActionsNotReceivedFails() async throws {
        await withKnownIssue {
            let store = makeStore()
            _ = try await store.run(IncrementTwice())
        }
    }

    @Test func sendingBeforeReceivingFails() async throws {
        let store = makeStore()
        _ = try await store.run(IncrementTwice())
        withKnownIssue {
            try store.send(Increment()) { $0.count = 3 }
        }
        await store.receive(Increment.self) { $0.count = 1 }
        await store.receive(Increment.self) { $0.count = 2 }
        await store.finish()
    }

    @Test func aLongRunningSideEffectRunsOnTheTestClock() async throws {
        let clock = TestClock(now: 0)
        let store = makeStore(clock: clock)
        store.start(Ticker(interval: 1_000))
        await clock.waitForSleepers()
        clock.advance(by: 999)
        #expect(clock.sleeperCount == 1, "not due yet")
        clock.advance(by: 1)
        await store.receive(Increment.self) { $0.count = 1 }
        await clock.waitForSleepers()
        await store.finish()
        #expect(clock.sleeperCount == 0, "cancelled sleepers are gone")
    }

    @Test func sequentialIDsAreFixed() {
        let ids = SequentialIDs(first: 41)
        #expect(ids.next().uuidString == "00000000-0000-4000-8000-000000000029")
        #expect(ids.next() == SequentialIDs.id(42))
    }
}
