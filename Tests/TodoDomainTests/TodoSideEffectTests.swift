import SyncStore
import SyncTesting
import Testing

@testable import TodoDomain

/// Items 1 "old" (done at 900), 2 "recent" (done at 901), 3 "open", at version 0.
private let threeItems = TodoState(
    items: [
        TodoItem(id: "a", number: 1, text: "old", completed: true, createdAt: 0, completedAt: 900),
        TodoItem(id: "b", number: 2, text: "recent", completed: true, createdAt: 0, completedAt: 901),
        TodoItem(id: "c", number: 3, text: "open", completed: false, createdAt: 0),
    ], nextNumber: 4)

@Suite struct ClearDoneItemsTests {
    @Test func picksOnlyItemsDoneLongerThanTheRetention() {
        #expect(ClearDoneItems.expiredNumbers(in: threeItems, retentionMilliseconds: 100, now: 1_000) == [1])
    }

    /// On the test clock: nothing goes before its time, each item goes once its time passed.
    @Test func removesEachItemOnceItsRetentionPassed() async throws {
        let clock = TestClock(now: 950)
        let store = makeTodoStore(clock: clock, state: threeItems)
        store.start(ClearDoneItems(retentionMilliseconds: 100))
        await clock.waitForSleepers()
        #expect(store.version == 0, "nothing is due at 950")
        clock.advance(by: 50)
        await store.receive(RemoveItem.self) {
            $0.items.remove(at: 0)
            $0.undoStack.push(
                UndoStep(summary: #"remove "old""#, changes: [.restore(item: threeItems.items[0], index: 0)], change: 1)
            )
        }
        await clock.waitForSleepers()
        clock.advance(by: 10)
        await store.receive(RemoveItem.self) {
            $0.items.remove(at: 0)
            $0.undoStack.push(
                UndoStep(
                    summary: #"remove "recent""#, changes: [.restore(item: threeItems.items[1], index: 0)], change: 2))
        }
        await clock.waitForSleepers()
        await store.finish()
        #expect(store.state.items.map(\.number) == [3])
    }
}

@Suite struct ExpireDoneTests {
    @Test func removesTheItemsDoneLongEnoughAgoAndSaysHowMany() async throws {
        let store = makeTodoStore(clock: TestClock(now: 1_900), state: threeItems)
        let result = try await store.run(ExpireDone(olderThanSeconds: 1))
        #expect(result == ExpireDone.Result(removed: 1))
        await store.receive(RemoveItem.self) {
            $0.items.remove(at: 0)
            $0.undoStack.push(
                UndoStep(summary: #"remove "old""#, changes: [.restore(item: threeItems.items[0], index: 0)], change: 1)
            )
        }
        await store.finish()
    }

    @Test func zeroSecondsRemovesEveryDoneItem() async throws {
        let store = makeTodoStore(clock: TestClock(now: 901), state: threeItems)
        #expect(try await store.run(ExpireDone(olderThanSeconds: 0)) == ExpireDone.Result(removed: 2))
        await store.receive(RemoveItem.self) { $0 = Self.without(1, from: $0, change: 1) }
        await store.receive(RemoveItem.self) { $0 = Self.without(2, from: $0, change: 2) }
        await store.finish()
    }

    @Test(arguments: [Int64(-1), ExpireDone.maximumSeconds + 1])
    func anAgeOutOfRangeIsRefusedAndChangesNothing(seconds: Int64) async {
        let store = makeTodoStore(clock: TestClock(now: 2_000), state: threeItems)
        await #expect(throws: TodoRejection.invalidAge(seconds)) {
            try await store.run(ExpireDone(olderThanSeconds: seconds))
        }
        #expect(store.state == threeItems)
        await store.finish()
    }

    private static func without(_ number: Int, from state: TodoState, change: Int) -> TodoState {
        var state = state
        let index = state.items.firstIndex { $0.number == number }!
        let item = state.items[index]
        state.items.remove(at: index)
        state.undoStack.push(
            UndoStep(summary: "remove \"\(item.text)\"", changes: [.restore(item: item, index: index)], change: change))
        return state
    }
}

@Suite struct AwaitDoneTests {
    @Test func answersAtOnceForADoneItem() async throws {
        let store = makeTodoStore(state: threeItems)
        #expect(try await store.run(AwaitDone(number: 1)) == AwaitDone.Result(text: "old"))
        await store.finish()
    }

    @Test func answersOnceTheItemIsDoneOnTheTestClock() async throws {
        let clock = TestClock(now: 5_000)
        let store = makeTodoStore(clock: clock, state: threeItems)
        let waited = store.start(AwaitDone(number: 3))
        await clock.waitForSleepers()
        try store.send(CompleteItem(number: 3)) {
            $0.items[2].completed = true
            $0.items[2].completedAt = 5_000
            $0.undoStack.push(
                UndoStep(summary: #"complete "open""#, changes: [.replace(item: threeItems.items[2])], change: 1))
        }
        clock.advance(by: AwaitDone.pollMilliseconds)
        #expect(try await waited.value == AwaitDone.Result(text: "open"))
        await store.finish()
    }

    @Test func aMissingItemIsRefused() async {
        let store = makeTodoStore(state: threeItems)
        await #expect(throws: TodoRejection.noSuchItem(9)) { try await store.run(AwaitDone(number: 9)) }
    }
}

/// The remove the expiry side effects send: only an item still done, and done by the time they
/// looked, goes; one reopened (or done again later) since stays.
@Suite struct RemoveDoneByTests {
    private let items = TodoState(
        items: [
            TodoItem(id: "a", number: 1, text: "done early", completed: true, createdAt: 0, completedAt: 900),
            TodoItem(id: "b", number: 2, text: "reopened", completed: false, createdAt: 0),
            TodoItem(id: "c", number: 3, text: "done late", completed: true, createdAt: 0, completedAt: 1_500),
        ], nextNumber: 4)

    @Test func removesOnlyAnItemDoneByTheTimeGiven() throws {
        let store = makeTodoStore(clock: TestClock(now: 2_000), state: items)
        for number in [2, 3] {
            #expect(throws: TodoRejection.notDoneBy(number: number, time: 1_000)) {
                try store.send(RemoveItem(number: number, doneBy: 1_000))
            }
        }
        #expect(store.state == items, "a refused remove leaves everything")
        try store.send(RemoveItem(number: 1, doneBy: 1_000)) {
            $0.items.remove(at: 0)
            // The two refused removes were accepted (and drew change ids 1 and 2) first.
            $0.undoStack.push(
                UndoStep(
                    summary: #"remove "done early""#, changes: [.restore(item: items.items[0], index: 0)], change: 3))
        }
    }

    @Test func theRefusalSaysWhatStays() {
        #expect(
            TodoRejection.notDoneBy(number: 2, time: 1_000).description
                == "item 2 was not done by 1000 ms since the epoch; it stays")
    }
}
