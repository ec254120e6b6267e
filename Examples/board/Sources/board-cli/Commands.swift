import BoardDomain
import BoardTUI
import Glibc
import SyncClient
import SyncStore

extension BoardCommand {
    /// `board show`: every column with its cards.
    static let show = BoardCommand(
        name: "show", arguments: "", summary: "Show every column with its cards (ids shortened to 8 characters; * marks notes).",
        run: { client, arguments in
            guard arguments.isEmpty else { throw BoardCLIError.usage("board show takes no arguments") }
            guard let board = try await client.get(BoardViewModel.self, params: NoParams()).model else { return }
            for column in board.columns {
                let count = column.limit.map { "\(column.cards.count)/\($0)" } ?? "\(column.cards.count)"
                print("\(column.name) (\(count))")
                for card in column.cards { print("  \(card.id.prefix(8))  \(card.title)\(card.hasNotes ? " *" : "")") }
            }
            if board.archivedCount > 0 { print("\(board.archivedCount) archived") }
        })

    /// `board add [--column NAME] TITLE...`
    static let add = BoardCommand(
        name: "add", arguments: "[--column NAME] TITLE...",
        summary: "Add a card with TITLE (the words joined by spaces) at the bottom of NAME (default: the first column).",
        run: { client, arguments in
            var words = arguments[...]
            var column: String?
            if words.first == "--column" {
                guard words.count >= 2 else { throw BoardCLIError.usage("--column needs a column name") }
                column = words[words.startIndex + 1]
                words = words.dropFirst(2)
            }
            guard !words.isEmpty else { throw BoardCLIError.usage("board add needs a title") }
            _ = try await client.dispatch(AddCard(title: words.joined(separator: " "), column: column))
        })

    /// `board move CARD COLUMN [POSITION]`
    static let move = BoardCommand(
        name: "move", arguments: "CARD COLUMN [POSITION]",
        summary: "Move CARD (its id or the start of it) to COLUMN, at POSITION (0 is the top; default: the bottom).",
        run: { client, arguments in
            guard arguments.count == 2 || arguments.count == 3 else { throw BoardCLIError.usage("usage: board move CARD COLUMN [POSITION]") }
            var position: Int?
            if arguments.count == 3 {
                guard let number = Int(arguments[2]) else { throw BoardCLIError.usage("POSITION is a number (0 is the top), not \(arguments[2])") }
                position = number
            }
            let card = try await CardReference.resolve(arguments[0], with: client)
            _ = try await client.dispatch(MoveCard(card: card, column: arguments[1], position: position))
        })

    /// `board tui`
    static let tui = BoardCommand(
        name: "tui", arguments: "", summary: "Open the board in the terminal (? there lists the keys).",
        run: { client, arguments in
            guard arguments.isEmpty else { throw BoardCLIError.usage("board tui takes no arguments") }
            try BoardTUI.requireTerminal()
            let noColor = getenv("NO_COLOR").map { String(cString: $0) }
            try await BoardTUI.run(client: client, noColor: noColor)
        })
}
