import Foundation
import Testing
import TodoDomain

@testable import SyncProtocol

/// The todo state encodes to the same bytes through the items' and undo steps'
/// `PlainObjectEncodable` writers (`WireJSON.encode`, what snapshots use) as through
/// `JSONEncoder` with the wire's settings, for every kind of item and undo change.
@Suite struct TodoSnapshotEncodingTests {
    static let open = TodoItem(
        id: "3627721e-9c1f-4a4b-8a8e-0123456789ab", number: 1, text: "buy milk", completed: false, createdAt: 1)
    static let done = TodoItem(
        id: "not-a-uuid", number: 2, text: #"say "hi" \ bye"#, completed: true, createdAt: 2, completedAt: 3)
    static let doneWithoutTime = TodoItem(id: "", number: 3, text: "", completed: true, createdAt: -4)

    static let states = [
        TodoState(),
        TodoState(items: [open, done, doneWithoutTime], nextNumber: 4),
        TodoState(
            items: [open], nextNumber: 9,
            undoStack: [
                UndoStep(summary: "add \"buy milk\"", changes: [.remove(number: 1)], change: 1),
                UndoStep(summary: "remove", changes: [.restore(item: done, index: 0)], change: nil),
                UndoStep(summary: "edit", changes: [.replace(item: doneWithoutTime), .remove(number: 7)], change: 3),
                UndoStep(summary: "clear", changes: [], change: 4),
            ]),
        // Not printable ASCII: the whole state goes to JSONEncoder, which must give the same.
        TodoState(
            items: [TodoItem(id: "x", number: 1, text: "thé ✓", completed: false, createdAt: 1)],
            undoStack: [UndoStep(summary: "add \"thé ✓\"", changes: [.remove(number: 1)], change: 1)]),
    ]

    @Test(arguments: states)
    func theWritersGiveTheEncodersBytes(state: TodoState) throws {
        let wire = try WireJSON.encode(state)
        let encoder = Array(try WireJSON.makeEncoder().encode(state))
        #expect(String(decoding: wire, as: UTF8.self) == String(decoding: encoder, as: UTF8.self))
        #expect(try WireJSON.decode(TodoState.self, from: wire) == state)
        // The plain encoder, writers included, wrote it, unless a text is not printable ASCII.
        let isASCII = state.items.allSatisfy { $0.text.utf8.allSatisfy { $0 < 0x80 } }
        #expect((try? PlainJSONEncoder.encode(state)) != nil || !isASCII)
    }
}
