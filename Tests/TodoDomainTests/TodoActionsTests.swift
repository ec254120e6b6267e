import Foundation
import SyncProtocol
import SyncStore
import Testing

@testable import TodoDomain

/// Fixed acceptance contexts, so states are exact.
private func context(_ n: Int) -> AcceptanceContext {
    AcceptanceContext(
        identifier: UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", n))")!,
        millisecondsSinceEpoch: Int64(1_000 * n))
}

private func accepted<A: Action<TodoState>>(_ action: A, _ n: Int, state: TodoState = TodoState()) -> A {
    var action = action
    action.accept(context(n), state: state)
    return action
}

@Suite struct TodoActionsTests {
    @Test(arguments: [
        (CompleteItem(number: 9) as any Action<TodoState>, TodoRejection.noSuchItem(9)),
        (ReopenItem(number: 9), .noSuchItem(9)),
        (EditItem(number: 9, text: "x"), .noSuchItem(9)),
        (RemoveItem(number: 9), .noSuchItem(9)),
        (EditItem(number: 1, text: " \t\n"), .emptyText),
        (AddItem(text: ""), .emptyText),
        (AddItem(text: String(repeating: "é", count: 1001)), .textTooLong(length: 1001)),
        (AddItem(text: "red \u{1B}[31m alert"), .controlCharacters),
        (AddItem(text: "two\nlines"), .controlCharacters),
        (EditItem(number: 1, text: "tab\there"), .controlCharacters),
    ])
    func rejectionsLeaveStateAndVersionUnchanged(action: any Action<TodoState>, rejection: TodoRejection) throws {
        var store = Store(state: TodoApp.initialState)
        try store.apply(accepted(AddItem(text: "keep me"), 1))
        let before = store
        var action = action
        action.accept(context(2), state: store.state)
        #expect(throws: rejection) { try store.apply(action) }
        #expect(store.state == before.state)
        #expect(store.version == before.version)
    }

    /// Every scalar of general category Cc is refused inside a text, and nothing else of the
    /// Basic Multilingual Plane is (Cc has no scalar beyond U+009F).
    @Test func exactlyTheControlCharactersAreRefused() throws {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value),
                !scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            else { continue }
            let isControl = scalar.properties.generalCategory == .control
            do {
                _ = try TodoText.validated("a\(Character(scalar))b")
                #expect(!isControl, "U+\(String(value, radix: 16)) was accepted")
            } catch {
                #expect(isControl && error == .controlCharacters, "U+\(String(value, radix: 16)): \(error)")
            }
        }
    }

    /// Plain ASCII takes a shorter path than other text; both trim and count alike.
    @Test(arguments: [
        ("  buy milk  ", "buy milk"), ("\tbuy milk\n", "buy milk"), (" \u{A0}caf\u{E9} ", "caf\u{E9}"),
        ("a  b", "a  b"), (String(repeating: "x", count: 1000) + "   ", String(repeating: "x", count: 1000)),
        (" a", "a"), ("a ", "a"), ("a", "a"),
    ])
    func textIsTrimmedOfWhitespace(text: String, expected: String) throws {
        #expect(try TodoText.validated(text) == expected)
    }

    /// An edit's text is kept as it was decoded: a copy of it was one more allocation per action.
    @Test func aTextWithNothingToTrimIsNotCopied() throws {
        var text = String(repeating: "x", count: 128)
        var validated = try TodoText.validated(text)
        let decoded = text.withUTF8 { $0.baseAddress }
        let kept = validated.withUTF8 { $0.baseAddress }
        #expect(decoded == kept)
    }

    @Test(arguments: [
        ("   ", TodoRejection.emptyText), ("", .emptyText), (" \t ", .emptyText),
        (String(repeating: "x", count: 1001), .textTooLong(length: 1001)), ("x\u{7F}", .controlCharacters),
    ])
    func textIsRefusedAlikeWhateverItsBytes(text: String, rejection: TodoRejection) {
        #expect(throws: rejection) { try TodoText.validated(text) }
    }

    @Test func textOfExactlyTheLimitIsAccepted() throws {
        var store = Store(state: TodoApp.initialState)
        try store.apply(accepted(AddItem(text: String(repeating: "界", count: 1000)), 1))
        #expect(store.state.items[0].text.count == 1000)
    }

    @Test func actionsThatWereNotAcceptedAreRejected() {
        var store = Store(state: TodoApp.initialState)
        #expect(throws: TodoRejection.notAccepted) { try store.apply(AddItem(text: "x")) }
        #expect(store.version == 0)
    }

    @Test func replayingTheAcceptedActionsGivesTheSameState() throws {
        let actions: [any Action<TodoState>] = [
            accepted(AddItem(text: "a"), 1), accepted(AddItem(text: "b"), 2), accepted(CompleteItem(number: 1), 3),
            accepted(EditItem(number: 2, text: "B"), 4), accepted(RemoveItem(number: 1), 5),
            accepted(AddItem(text: "c"), 6),
        ]
        // Accepted actions travel as JSON (journals, the wire); replay what comes back.
        let encoded = try actions.map { try JSONEncoder().encode($0) }
        var original = Store(state: TodoApp.initialState)
        for action in actions { try original.apply(action) }
        var replayed = Store(state: TodoApp.initialState)
        for (action, data) in zip(actions, encoded) {
            try Self.replay(action, from: data, into: &replayed)
        }
        #expect(replayed.state == original.state)
        #expect(replayed.version == original.version)
    }

    /// Decodes `data` as the type of `action` and applies it.
    private static func replay<A: Action<TodoState>>(_ action: A, from data: Data, into store: inout Store<TodoState>)
        throws
    {
        try store.apply(try JSONDecoder().decode(A.self, from: data))
    }

    @Test func wireNamesAreUniqueAndStable() {
        #expect(
            TodoApp.actions.map { $0.wireName } == [
                "add", "complete", "reopen", "edit", "remove", "clearCompleted", "undo", "import",
            ])
        #expect(TodoApp.viewModels.map { $0.wireName } == ["list", "item", "summary", "export", "undo"])
    }
}

/// The summaries undo steps keep, written as UTF-8 bytes (`describe`): the verb, a space and the
/// text in quotes, for texts of one-byte and of longer UTF-8 sequences alike.
@Suite struct UndoSummaryTests {
    @Test(arguments: ["buy milk", "café ☕ 日本", "", String(repeating: "x", count: 1000)])
    func aSummaryIsTheVerbAndTheQuotedText(text: String) {
        let item = TodoItem(id: "a", number: 1, text: text, completed: false, createdAt: 0)
        #expect(
            Array(describe("edit", item.text).utf8) == Array("edit \"".utf8) + Array(text.utf8) + [UInt8(ascii: "\"")])
        #expect(describe("complete", item.text).utf8.count == "complete".utf8.count + text.utf8.count + 3)
    }

    /// An action's step keeps its summary as a verb and the item's text, and its one change
    /// inline: it reads, encodes, decodes and compares as the step with its summary written.
    @Test func aStepKeptInPartsIsTheStepWithItsSummaryWritten() throws {
        let item = TodoItem(id: "a", number: 4, text: "buy milk", completed: false, createdAt: 1)
        let parts = UndoStep("complete", item, revertedBy: .replace(item: item), change: 7)
        let written = UndoStep(summary: #"complete "buy milk""#, changes: [.replace(item: item)], change: 7)
        #expect(parts.summary == written.summary)
        #expect(parts.changes == written.changes)
        #expect(parts == written && written == parts)
        #expect(try WireJSON.encode(parts) == WireJSON.encode(written))
        #expect(try WireJSON.decode(UndoStep.self, from: WireJSON.encode(parts)) == parts)

        #expect(parts != UndoStep("reopen", item, revertedBy: .replace(item: item), change: 7))
        #expect(parts != UndoStep("complete", item, revertedBy: .remove(number: 4), change: 7))
        #expect(parts != UndoStep("complete", item, revertedBy: .replace(item: item), change: 8))
        var other = item
        other.text = "buy bread"
        #expect(parts != UndoStep("complete", other, revertedBy: .replace(item: item), change: 7))
        var renamed = parts
        renamed.summary = "something else"
        #expect(renamed != parts && renamed.summary == "something else")
        var rechanged = parts
        rechanged.changes = [.remove(number: 4), .replace(item: item)]
        #expect(rechanged.changes == [.remove(number: 4), .replace(item: item)] && rechanged != parts)
        #expect(rechanged.summary == parts.summary)
        rechanged.changes = [.replace(item: item)]
        #expect(rechanged == parts)
    }

    @Test func anEditRecordsTheItemsTextBeforeTheEdit() throws {
        var store = Store(state: TodoApp.initialState)
        try store.apply(accepted(AddItem(text: "thé vert"), 1))
        try store.apply(accepted(EditItem(number: 1, text: "café"), 2))
        #expect(store.state.undoStack.last?.summary == "edit \"thé vert\"")
    }
}
