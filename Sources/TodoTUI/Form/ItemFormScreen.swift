import TerminalUI
import TodoDomain

/// The modal form adding an item or editing one (a `TextFormScreen`): it sends `add` or `edit`
/// on Enter, closes when the daemon accepted it and shows the refusal otherwise.
public final class ItemFormScreen: TextFormScreen<TodoStore> {
    /// What the form does.
    public enum Mode: Equatable, Sendable {
        /// Adds a new item.
        case add
        /// Replaces item `number`'s text, starting from `text`.
        case edit(number: Int, text: String)
    }

    /// What the form does.
    public let mode: Mode

    /// A form for `mode` over `store`.
    public init(mode: Mode, store: TodoStore) {
        self.mode = mode
        switch mode {
        case .add:
            super.init(model: TextFormModel(title: "Add item", input: TextInput()), store: store)
        case .edit(let number, let text):
            super.init(model: TextFormModel(title: "Edit item \(number)", input: TextInput(text)), store: store)
        }
    }

    /// `add` or `edit` with the text typed.
    public override func action(for text: String) -> TodoStore.Action {
        switch mode {
        case .add: AddItem(text: text)
        case .edit(let number, _): EditItem(number: number, text: text)
        }
    }

    /// The refusal as the main screen says it.
    public override func describe(_ error: any Error) -> String {
        MainScreen.describe(error)
    }
}
