import BoardDomain
import CommandLineKit
import SyncClient
import SyncStore

/// Cards named on the command line by their id or a unique start of it (`board show` prints
/// the first 8 characters).
enum CardReference {
    /// The id of the card on the board whose id is `reference` or starts with it.
    static func resolve(_ reference: String, with client: SyncClient) async throws -> String {
        let board = try await client.get(BoardViewModel.self, params: NoParams()).model
        let ids = board?.columns.flatMap { $0.cards.map(\.id) } ?? []
        if ids.contains(reference) { return reference }
        let matches = ids.filter { $0.hasPrefix(reference.lowercased()) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw CLIError.rejected("no card \(reference) on the board")
        default: throw CLIError.rejected("\(reference) starts the ids of \(matches.count) cards; give more of it")
        }
    }
}
