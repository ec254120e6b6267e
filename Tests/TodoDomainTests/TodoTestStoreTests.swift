import SyncStore
import SyncTesting
import Testing

@testable import TodoDomain

/// A test store of the todo app whose clock starts at 0 and whose ids run 1, 2, 3…
func makeTodoStore(clock: TestClock = TestClock(now: 0), state: TodoState = TodoApp.initialState) -> TestStore<TodoApp>
{
    TestStore(TodoApp.self, state: state, dependencies: StandardDependencies(clock: clock, ids: SequentialIDs()))
}

/// The id `SequentialIDs` gives the `n`th accepted action (n < 10).
func sequentialID(_ n: Int) -> String { "00000000-0000-4000-8000-00000000000\(n)" }

@Suite struct TodoTestStoreTests {
    /// Each action in turn, a second apart on the test clock: the exact state after each.
    @Test func eachActionProducesTheExactState() throws {
        let clock = TestClock(now: 0)
        let store = makeTodoStore(clock: clock)
        let milk = TodoItem(id: sequentialID(1), number: 1, text: "buy milk", completed: false, createdAt: 1000)
        let dog = TodoItem(id: sequentialID(2), number: 2, text: "walk dog", completed: false, createdAt: 2000)
        var doneMilk = milk
        doneMilk.completed = true
        doneMilk.completedAt = 3000
        let third = TodoItem(id: sequentialID(7), number: 3, text: "third", completed: false, createdAt: 7000)
        var doneThird = third
        doneThird.completed = true
        doneThird.completedAt = 8000
        var renamedDog = dog
        renamedDog.text = "walk the dog"

        clock.advance(by: 1000)
        try store.send(AddItem(text: "  buy milk \n")) {
            $0 = TodoState(
                items: [milk], nextNumber: 2,
                undoStack: [UndoStep(summary: #"add "buy milk""#, changes: [.remove(number: 1)], change: 1)])
        }
        #expect(store.version == 1)
        clock.advance(by: 1000)
        try store.send(AddItem(text: "walk dog")) {
            $0.items.append(dog)
            $0.nextNumber = 3
            $0.undoStack.push(UndoStep(summary: #"add "walk dog""#, changes: [.remove(number: 2)], change: 2))
        }
        clock.advance(by: 1000)
        try store.send(CompleteItem(number: 1)) {
            $0.items[0] = doneMilk
            $0.undoStack.push(UndoStep(summary: #"complete "buy milk""#, changes: [.replace(item: milk)], change: 3))
        }
        #expect(store.state.items[0].completed && store.state.items[0].completedAt == 3000)
        clock.advance(by: 1000)
        try store.send(EditItem(number: 2, text: " walk the dog ")) {
            $0.items[1] = renamedDog
            $0.undoStack.push(UndoStep(summary: #"edit "walk dog""#, changes: [.replace(item: dog)], change: 4))
        }
        #expect(store.state.items[1].text == "walk the dog")
        clock.advance(by: 1000)
        try store.send(ReopenItem(number: 1)) {
            $0.items[0] = milk
            $0.undoStack.push(UndoStep(summary: #"reopen "buy milk""#, changes: [.replace(item: doneMilk)], change: 5))
        }
        #expect(!store.state.items[0].completed && store.state.items[0].completedAt == nil)
        clock.advance(by: 1000)
        try store.send(RemoveItem(number: 1)) {
            $0.items = [renamedDog]
            $0.undoStack.push(
                UndoStep(summary: #"remove "buy milk""#, changes: [.restore(item: milk, index: 0)], change: 6))
        }
        #expect(store.state.items.map(\.number) == [2])
        clock.advance(by: 1000)
        try store.send(AddItem(text: "third")) {
            $0.items.append(third)
            $0.nextNumber = 4
            $0.undoStack.push(UndoStep(summary: #"add "third""#, changes: [.remove(number: 3)], change: 7))
        }
        #expect(store.state.items.map(\.number) == [2, 3], "numbers are never reused")
        clock.advance(by: 1000)
        try store.send(CompleteItem(number: 3)) {
            $0.items[1] = doneThird
            $0.undoStack.push(UndoStep(summary: #"complete "third""#, changes: [.replace(item: third)], change: 8))
        }
        clock.advance(by: 1000)
        try store.send(ClearCompleted()) {
            $0.items = [renamedDog]
            $0.undoStack.push(
                UndoStep(summary: "clear 1 done item", changes: [.restore(item: doneThird, index: 1)], change: 9))
        }
        #expect(
            store.state
                == TodoState(
                    items: [renamedDog], nextNumber: 4,
                    undoStack: [
                        UndoStep(summary: #"add "buy milk""#, changes: [.remove(number: 1)], change: 1),
                        UndoStep(summary: #"add "walk dog""#, changes: [.remove(number: 2)], change: 2),
                        UndoStep(summary: #"complete "buy milk""#, changes: [.replace(item: milk)], change: 3),
                        UndoStep(summary: #"edit "walk dog""#, changes: [.replace(item: dog)], change: 4),
                        UndoStep(summary: #"reopen "buy milk""#, changes: [.replace(item: doneMilk)], change: 5),
                        UndoStep(summary: #"remove "buy milk""#, changes: [.restore(item: milk, index: 0)], change: 6),
                        UndoStep(summary: #"add "third""#, changes: [.remove(number: 3)], change: 7),
                        UndoStep(summary: #"complete "third""#, changes: [.replace(item: third)], change: 8),
                        UndoStep(
                            summary: "clear 1 done item", changes: [.restore(item: doneThird, index: 1)], change: 9),
                    ]))
        #expect(store.version == 9)
    }

    @Test func completingADoneItemKeepsItsCompletionTime() throws {
        let clock = TestClock(now: 1000)
        let store = makeTodoStore(clock: clock)
        try store.send(AddItem(text: "a")) {
            $0.items = [TodoItem(id: sequentialID(1), number: 1, text: "a", completed: false, createdAt: 1000)]
            $0.nextNumber = 2
            $0.undoStack.push(UndoStep(summary: #"add "a""#, changes: [.remove(number: 1)], change: 1))
        }
        clock.advance(by: 1000)
        try store.send(CompleteItem(number: 1)) {
            $0.items[0].completed = true
            $0.items[0].completedAt = 2000
            $0.undoStack.push(
                UndoStep(
                    summary: #"complete "a""#,
                    changes: [
                        .replace(
                            item: TodoItem(id: sequentialID(1), number: 1, text: "a", completed: false, createdAt: 1000)
                        )
                    ], change: 2))
        }
        clock.advance(by: 1000)
        try store.send(CompleteItem(number: 1))
        #expect(store.state.items[0].completedAt == 2000)
        #expect(store.version == 3)
    }

    @Test(arguments: [
        (CompleteItem(number: 9) as any Action<TodoState>, TodoRejection.noSuchItem(9)),
        (RemoveItem(number: 9), .noSuchItem(9)),
        (EditItem(number: 1, text: " \t\n"), .emptyText),
        (AddItem(text: "two\nlines"), .controlCharacters),
    ])
    func rejectionsLeaveStateAndVersionUnchanged(action: any Action<TodoState>, rejection: TodoRejection) throws {
        let store = makeTodoStore()
        try store.send(AddItem(text: "keep me")) {
            $0.items = [TodoItem(id: sequentialID(1), number: 1, text: "keep me", completed: false, createdAt: 0)]
            $0.nextNumber = 2
            $0.undoStack.push(UndoStep(summary: #"add "keep me""#, changes: [.remove(number: 1)], change: 1))
        }
        let before = store.state
        #expect(throws: rejection) { try Self.send(action, to: store) }
        #expect(store.state == before)
        #expect(store.version == 1)
    }

    private static func send<A: Action<TodoState>>(_ action: A, to store: TestStore<TodoApp>) throws {
        try store.send(action)
    }
}
