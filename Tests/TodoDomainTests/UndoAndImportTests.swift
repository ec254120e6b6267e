import Foundation
import SyncStore
import Testing
@testable import TodoDomain

private func accept<A: Action<TodoState>>(_ action: A, on store: Store<TodoState>, _ n: Int = 1) -> A {
    var action = action
    action.accept(AcceptanceContext(identifier: UUID(), millisecondsSinceEpoch: Int64(n) * 1000), state: store.state)
    return action
}

@Suite struct UndoTests {
    /// Applies `action` accepted against the current state.
    private func apply<A: Action<TodoState>>(_ action: A, _ store: inout Store<TodoState>, _ n: Int = 1) throws {
        try store.apply(accept(action, on: store, n))
    }

    /// A shared log may put another host's change before an undo accepted here: the undo then
    /// refuses, naming both changes, instead of undoing the change its user never saw.
    @Test func anUndoOvertakenByANewerChangeIsRejectedNotRetargeted() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "mine"), &store, 1)
        let undo = accept(UndoLast(), on: store)
        #expect(undo.undoing == #"add "mine""# && undo.reverts == 1)
        try apply(AddItem(text: "theirs"), &store, 2)
        let before = store
        #expect(throws: TodoRejection.undoOvertaken(undoing: #"add "mine""#, latest: #"add "theirs""#)) { try store.apply(undo) }
        #expect(store.state == before.state && store.version == before.version, "a rejected undo changes nothing")
        #expect(TodoRejection.undoOvertaken(undoing: #"add "mine""#, latest: #"add "theirs""#).description
            == #"nothing was undone: the undo was for add "mine", but a newer change (add "theirs") landed first"#)
    }

    /// A client names the change it saw as the newest (the `undo` view model): its undo reverts
    /// exactly that one, and is refused when another change is the newest by then, even one
    /// accepted on this daemon after the client looked.
    @Test func anUndoNamingWhatItsClientSawRevertsOnlyThat() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "a"), &store, 1)
        let seen = try #require(UndoViewModel(state: store.state, params: NoParams()).next)
        #expect(seen == UndoTarget(serial: 1, summary: #"add "a""#))
        try apply(AddItem(text: "b"), &store, 2)
        let undo = accept(UndoLast(reverting: seen), on: store)
        #expect(undo.reverts == 1 && undo.undoing == #"add "a""#, "acceptance keeps the client's target")
        #expect(throws: TodoRejection.undoOvertaken(undoing: #"add "a""#, latest: #"add "b""#)) { try store.apply(undo) }
        let now = try #require(UndoViewModel(state: store.state, params: NoParams()).next)
        try store.apply(accept(UndoLast(reverting: now), on: store))
        #expect(store.state.items.map(\.text) == ["a"])
        #expect(UndoViewModel(state: Store(state: TodoApp.initialState).state, params: NoParams()).next == nil)
    }

    /// An undo that was undone and replaced by a new change at the same depth does not match it.
    @Test func serialsNameOneStepForGoodEvenAfterItWasUndone() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "a"), &store, 1)
        try apply(AddItem(text: "b"), &store, 2)
        let staleUndo = accept(UndoLast(), on: store)
        try apply(UndoLast(), &store)
        try apply(AddItem(text: "c"), &store, 3)
        #expect(store.state.undoStack.last?.serial == 3)
        #expect(throws: TodoRejection.undoOvertaken(undoing: #"add "b""#, latest: #"add "c""#)) { try store.apply(staleUndo) }
    }

    /// Journals and snapshots written before undo named its target still replay: an undo
    /// without `reverts` undoes the top step, and steps without serials decode.
    @Test func undosAndStepsFromBeforeSerialsStillApply() throws {
        let old = #"{"items":[{"completed":false,"createdAt":1000,"id":"00000000-0000-0000-0000-000000000001","number":1,"text":"a"}],"nextNumber":2,"undoStack":[{"changes":[{"remove":{"number":1}}],"summary":"add \"a\""}]}"#
        let state = try JSONDecoder().decode(TodoState.self, from: Data(old.utf8))
        #expect(state.undoStack.last?.serial == nil && state.lastUndoSerial == nil)
        var store = Store(state: state)
        let legacyUndo = try JSONDecoder().decode(UndoLast.self, from: Data(#"{"undoing":"add \"a\""}"#.utf8))
        try store.apply(legacyUndo)
        #expect(store.state.items.isEmpty)
        var fresh = Store(state: state)
        try apply(UndoLast(), &fresh)
        #expect(fresh.state.items.isEmpty, "an undo accepted on a step without a serial undoes it")
    }

    @Test func eachUndoRevertsTheNextOlderChangeExactly() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "a"), &store, 1)
        try apply(AddItem(text: "b"), &store, 2)
        let afterAdds = store.state.items
        try apply(CompleteItem(number: 1), &store, 3)
        try apply(EditItem(number: 2, text: "B"), &store, 4)
        let beforeRemove = store.state.items
        try apply(RemoveItem(number: 1), &store, 5)
        try apply(ClearCompleted(), &store, 6)

        try apply(UndoLast(), &store)          // undoes the remove (the clear changed nothing)
        #expect(store.state.items == beforeRemove)
        try apply(UndoLast(), &store)          // undoes the edit
        try apply(UndoLast(), &store)          // undoes the complete
        #expect(store.state.items == afterAdds)
        try apply(UndoLast(), &store)
        try apply(UndoLast(), &store)
        #expect(store.state.items.isEmpty)
        #expect(store.state.nextNumber == 3, "undo never gives a number back")
        #expect(throws: TodoRejection.nothingToUndo) { try apply(UndoLast(), &store) }
    }

    @Test func undoOfAClearRestoresEveryItemInPlace() throws {
        var store = Store(state: TodoApp.initialState)
        for text in ["a", "b", "c", "d"] { try apply(AddItem(text: text), &store) }
        try apply(CompleteItem(number: 1), &store)
        try apply(CompleteItem(number: 3), &store)
        let before = store.state.items
        try apply(ClearCompleted(), &store)
        #expect(store.state.items.map(\.number) == [2, 4])
        try apply(UndoLast(), &store)
        #expect(store.state.items == before)
    }

    @Test func acceptanceNamesWhatWillBeUndone() throws {
        var store = Store(state: TodoApp.initialState)
        try apply(AddItem(text: "buy milk"), &store)
        #expect(accept(UndoLast(), on: store).undoing == #"add "buy milk""#)
        #expect(accept(UndoLast(), on: Store(state: TodoApp.initialState)).undoing == nil)
    }

    @Test func theStackKeepsOnlyTheNewestSteps() throws {
        var store = Store(state: TodoApp.initialState)
        for n in 0..<(TodoState.undoDepth + 10) { try apply(AddItem(text: "item \(n)"), &store) }
        #expect(store.state.undoStack.count == TodoState.undoDepth)
        #expect(store.state.undoStack.steps.first?.summary == #"add "item 10""#)
    }
}

@Suite struct ImportTests {
    private func item(_ id: String, _ number: Int, _ text: String, createdAt: Int64) -> TodoItem {
        TodoItem(id: id, number: number, text: text, completed: false, createdAt: createdAt)
    }

    @Test func importingTwiceChangesNothingTheSecondTime() throws {
        var store = Store(state: TodoApp.initialState)
        let items = [item("x", 4, "four", createdAt: 40), item("y", 2, "two", createdAt: 20)]
        try store.apply(ImportItems(items: items))
        #expect(store.state.items.map(\.number) == [2, 4])
        #expect(store.state.nextNumber == 5)
        let once = store.state
        try store.apply(ImportItems(items: items))
        #expect(store.state == once)
    }

    @Test func numbersAlreadyGivenOutAreNotReused() throws {
        var store = Store(state: TodoApp.initialState)
        for text in ["a", "b", "c"] {
            try store.apply(accept(AddItem(text: text), on: store, 100))
        }
        try store.apply(accept(RemoveItem(number: 2), on: store))
        try store.apply(ImportItems(items: [item("z", 2, "imported", createdAt: 50)]))
        #expect(store.state.items.map(\.number) == [4, 1, 3], "imported as 4, placed by creation time")
        #expect(store.state.items.first?.text == "imported")
    }

    @Test func anInvalidItemRejectsTheWholeImport() throws {
        var store = Store(state: TodoApp.initialState)
        let before = store.state
        #expect(throws: TodoRejection.self) {
            try store.apply(ImportItems(items: [item("ok", 1, "fine", createdAt: 1), item("bad", 2, "  ", createdAt: 2)]))
        }
        #expect(store.state == before)
        #expect(store.version == 0)
    }

    @Test func undoRemovesWhatAnImportAdded() throws {
        var store = Store(state: TodoApp.initialState)
        try store.apply(ImportItems(items: [item("x", 1, "one", createdAt: 1)]))
        try store.apply(UndoLast())
        #expect(store.state.items.isEmpty)
    }
}
