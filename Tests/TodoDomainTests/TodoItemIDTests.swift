import Foundation
import SyncProtocol
import Testing

@testable import TodoDomain

/// An item's id is held in 16 bytes when it is a lowercase UUID (what `add` gives), as text
/// otherwise, and reads and encodes back exactly as it was given either way.
@Suite struct TodoItemIDTests {
    @Test(arguments: [
        "0f8fad5b-d9cb-469f-a165-70867728950e", "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        // Not a lowercase UUID: kept as text.
        "0F8FAD5B-D9CB-469F-A165-70867728950E", "0f8fad5b-d9cb-469f-a165-70867728950",
        "0f8fad5bd9cb-469f-a165-70867728950e0",
        "0f8fad5b-d9cb-469f-a165-70867728950g", "0f8fad5b-d9cb-469f-a165+70867728950e", "imported-7", "", "é-ü",
    ])
    func anIdReadsBackAsItWasGiven(text: String) {
        #expect(TodoItemID(text).text == text)
        let isLowercaseUUID =
            text.utf8.count == 36
            && text.utf8.enumerated().allSatisfy { offset, byte in
                [8, 13, 18, 23].contains(offset)
                    ? byte == UInt8(ascii: "-") : Array("0123456789abcdef".utf8).contains(byte)
            }
        #expect(TodoItemID(text).isCompact == isLowercaseUUID)
        var item = TodoItem(id: text, number: 1, text: "x", completed: false, createdAt: 0)
        #expect(item.id == text)
        item.id = "other"
        #expect(item.id == "other")
    }

    @Test func idsAreEqualWhenTheirTextsAre() {
        let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
        #expect(TodoItemID(uuid) == TodoItemID(uuid.lowercased()))
        #expect(TodoItemID(uuid) != TodoItemID(uuid.uppercased()))
        #expect(Set([TodoItemID(uuid), TodoItemID(uuid), TodoItemID("a")]).count == 2)
    }

    /// The fields of an item as it was declared before its id was held compactly, with the
    /// `Codable` the compiler wrote for it: the JSON an item must still read and write.
    private struct ItemWithAStringID: Codable {
        var id: String
        var number: Int
        var text: String
        var completed: Bool
        var createdAt: Int64
        var completedAt: Int64?
    }

    /// The item is 64 bytes on a 64-bit machine (`completed` and whether `completedAt` is set
    /// share a byte beside the id's tag), and its JSON is what it was with a string id.
    @Test func anItemIsSixtyFourBytesAndKeepsItsJSON() throws {
        #if _pointerBitWidth(_64)
            #expect(MemoryLayout<TodoItem>.stride == 64)
        #endif
        let items = [
            TodoItem(
                id: "0f8fad5b-d9cb-469f-a165-70867728950e", number: 3, text: "buy milk", completed: false,
                createdAt: 1_700_000_000_000),
            TodoItem(id: "imported-7", number: 4, text: "call", completed: true, createdAt: 1, completedAt: 2),
        ]
        for item in items {
            let reference = ItemWithAStringID(
                id: item.id, number: item.number, text: item.text, completed: item.completed,
                createdAt: item.createdAt, completedAt: item.completedAt)
            let encoded = try WireJSON.encode(item)
            #expect(encoded == (try WireJSON.encode(reference)))
            #expect(try WireJSON.decode(TodoItem.self, from: encoded) == item)
            #expect(try JSONDecoder().decode(TodoItem.self, from: Data(encoded)) == item)
        }
        let withoutDone = try WireJSON.encode(items[0])
        #expect(!String(decoding: withoutDone, as: UTF8.self).contains("completedAt"))
    }

    /// `completed` and `completedAt`, which share a byte, are set and read each on its own, and
    /// two items are equal exactly when every field is.
    @Test func completedAndItsTimeAreIndependentFields() {
        var item = TodoItem(id: "a", number: 1, text: "t", completed: false, createdAt: 5)
        #expect(!item.completed && item.completedAt == nil)
        item.completedAt = 0
        #expect(!item.completed && item.completedAt == 0)
        item.completed = true
        #expect(item.completed && item.completedAt == 0)
        item.completedAt = nil
        #expect(item.completed && item.completedAt == nil)
        item.completedAt = .min
        #expect(item.completedAt == .min)

        let open = TodoItem(id: "a", number: 1, text: "t", completed: false, createdAt: 5)
        var reopened = open
        reopened.completed = true
        reopened.completedAt = 9
        #expect(reopened != open)
        reopened.completed = false
        #expect(reopened != open)
        reopened.completedAt = nil
        #expect(reopened == open)
        #expect(TodoItem(id: "a", number: 1, text: "t", completed: true, createdAt: 5, completedAt: 0) != open)
    }
}
