import SyncClient

/// One `board` command, declared as data: `board --help` and `board NAME --help` come from
/// these fields.
struct BoardCommand: Sendable {
    /// The word that selects the command.
    let name: String
    /// Arguments after the name, as shown in usage lines.
    let arguments: String
    /// One line for the command table.
    let summary: String
    /// Runs the command with the words after its name, on a connected client.
    let run: @Sendable (SyncClient, [String]) async throws -> Void

    /// The text `board NAME --help` prints.
    var help: String {
        "usage: board [--socket PATH] \(name) \(arguments)\n\n\(summary)\n"
    }

    /// Every command, in the order `board --help` lists them.
    static let all: [BoardCommand] = [.show, .add, .move, .tui]
}
