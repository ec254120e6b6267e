import TerminalUI
import TodoDomain

/// The modal form adding an item or editing one: it keeps the text being typed, sends
/// `add` or `edit` on Enter, closes when the daemon accepted it and shows the refusal
/// otherwise.
public final class ItemFormScreen: Screen<ItemFormView, TodoStore> {
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
        super.init(view: ItemFormView(), store: store)
        switch mode {
        case .add: rootView.model = ItemFormModel(title: "Add item", input: TextInput())
        case .edit(let number, let text):
            rootView.model = ItemFormModel(title: "Edit item \(number)", input: TextInput(text))
        }
    }

    /// Wires the view's interaction callbacks to actions and navigation.
    public override func setupInteraction() {
        rootView.didEdit = { [unowned self] input in
            guard var model = rootView.model, !model.isSending else { return }
            model.input = input
            model.error = nil
            rootView.model = model
        }
        rootView.didSubmit = { [unowned self] in submit() }
        rootView.didCancel = { [unowned self] in close() }
    }

    private func submit() {
        guard var model = rootView.model, !model.isSending else { return }
        model.isSending = true
        rootView.model = model
        let action: TodoStore.Action
        switch mode {
        case .add: action = AddItem(text: model.input.text)
        case .edit(let number, _): action = EditItem(number: number, text: model.input.text)
        }
        dispatch(action) { [weak self] result in
            guard let self, var model = rootView.model else { return }
            switch result {
            case .success:
                close()
            case .failure(let error):
                model.isSending = false
                model.error = MainScreen.describe(error)
                rootView.model = model
            }
        }
    }

    private func close() {
        do {
            try hide(routeIdentifier)
        } catch {
            didFail(error)
        }
    }
}
