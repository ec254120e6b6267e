import BoardDomain
import CommandLineKit
import SyncCommandLine

extension Command {
    /// `board move CARD COLUMN [POSITION]`
    static let move = Command(
        name: "move", arguments: "CARD COLUMN [POSITION]",
        summary: "Move CARD (its id or the start of it) to COLUMN, at POSITION (0 is the top; default: the bottom).",
        details: "A move to another column that is at its limit is refused; a move within a column never is.",
        run: { context, arguments throws(CLIError) in
            let words = try CommandArguments(arguments, command: "move").positional
            guard words.count == 2 || words.count == 3 else { throw .usage("move needs CARD COLUMN [POSITION]") }
            var position: Int?
            if words.count == 3 {
                guard let number = Int(words[2]) else {
                    throw .usage("POSITION is a number (0 is the top), not \(words[2])")
                }
                position = number
            }
            _ = try await context.withClient(BoardApp.self) { client in
                let card = try await CardReference.resolve(words[0], with: client)
                return try await client.dispatch(MoveCard(card: card, column: words[1], position: position))
            }
        })
}
