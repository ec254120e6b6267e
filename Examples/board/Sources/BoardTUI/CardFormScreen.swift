import BoardDomain
import TerminalUI

/// The modal form adding a card to a column: it keeps the title being typed, sends `addCard`
/// on Enter, closes when the daemon accepted it and shows the refusal otherwise (a column at
/// its limit, an empty title).
public final class CardFormScreen: Screen<CardFormView, BoardStore> {
    /// The column the card goes into.
    public let column: String

    /// A form adding a card to `column` over `store`.
    public init(column: String, store: BoardStore) {
        self.column = column
        super.init(view: CardFormView(), store: store)
        rootView.model = CardFormModel(title: "Add a card to \(column)", input: TextInput())
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
        dispatch(AddCard(title: model.input.text, column: column)) { [weak self] result in
            guard let self, var model = rootView.model else { return }
            switch result {
            case .success:
                close()
            case .failure(let error):
                model.isSending = false
                model.error = BoardScreen.describe(error)
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
