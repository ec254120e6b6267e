import BoardDomain
import TerminalUI

/// The modal form adding a card to a column (a `TextFormScreen`): it sends `addCard` on Enter,
/// closes when the daemon accepted it and shows the refusal otherwise (a column at its limit,
/// an empty title).
public final class CardFormScreen: TextFormScreen<BoardStore> {
    /// The column the card goes into.
    public let column: String

    /// A form adding a card to `column` over `store`.
    public init(column: String, store: BoardStore) {
        self.column = column
        let model = TextFormModel(
            title: "Add a card to \(column)", input: TextInput(), submitLabel: "add", sendingLabel: "adding...")
        super.init(model: model, store: store)
    }

    /// `addCard` with the title typed.
    public override func action(for text: String) -> BoardStore.Action {
        AddCard(title: text, column: column)
    }

    /// The refusal as the board screen says it.
    public override func describe(_ error: any Error) -> String {
        BoardScreen.describe(error)
    }
}
