import SyncProtocol
import TodoDomain

@testable import SyncWeb

/// The todo allowlist the tests' cores and guards use: the list and the undo target, the item
/// actions.
let testAllowlist = WebAllowlist(
    actions: [.of(AddItem.self), .of(CompleteItem.self)], viewModels: [.of(ListViewModel.self)])

/// `text` as the bytes a browser sends.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A message the core wrote, decoded.
func decoded(_ message: [UInt8]) throws -> JSONValue {
    try WireJSON.decode(JSONValue.self, from: message)
}

/// A list model of `texts`, as the daemon would send it (only the shape matters here).
func listModel(_ texts: [String]) -> JSONValue {
    .object([
        "items": .array(
            texts.enumerated().map { index, text in
                .object(["number": .integer(Int64(index + 1)), "text": .string(text), "done": .bool(false)])
            })
    ])
}
