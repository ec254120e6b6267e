import Foundation
import SyncStore

@testable import BoardDomain

/// A fixed acceptance context: id `…n`, time `n` seconds after the epoch, so states are exact.
func context(_ n: Int, at milliseconds: Int64? = nil) -> AcceptanceContext {
    AcceptanceContext(
        identifier: UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", n))")!,
        millisecondsSinceEpoch: milliseconds ?? Int64(1_000 * n))
}

/// The card id context `n` gives.
func cardID(_ n: Int) -> String {
    "00000000-0000-0000-0000-\(String(format: "%012d", n))"
}

/// A store that accepts each action with context `n` (its own counter) before applying it, as
/// the daemon does.
struct BoardHarness {
    var store = Store(state: BoardApp.initialState)
    var next = 1

    var state: BoardState { store.state }

    /// Accepts and applies `action`; returns the context number used.
    @discardableResult
    mutating func apply<A: Action<BoardState>>(_ action: A, at milliseconds: Int64? = nil) throws -> Int {
        var action = action
        let n = next
        next += 1
        action.accept(context(n, at: milliseconds), state: store.state)
        try store.apply(action)
        return n
    }

    /// Adds a card `title` to `column`; returns its id.
    @discardableResult
    mutating func add(_ title: String, to column: String? = nil) throws -> String {
        cardID(try apply(AddCard(title: title, column: column)))
    }

    /// The titles of each column, left to right.
    var titles: [String: [String]] {
        Dictionary(uniqueKeysWithValues: state.columns.map { ($0.name, $0.cards.map(\.title)) })
    }
}

/// The rejection `body` throws, if it throws one.
func rejection(_ body: () throws -> Void) -> BoardRejection? {
    do {
        try body()
        return nil
    } catch {
        return error as? BoardRejection
    }
}
