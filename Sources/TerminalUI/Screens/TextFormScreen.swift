/// The screen of a `TextFormView`, presented modally: it keeps the text being typed, sends the
/// action a subclass makes of it on Enter (`action(for:)`), closes when the store accepted it
/// and shows the refusal otherwise (`describe(_:)`); Esc closes it.
open class TextFormScreen<Store: ScreenStore>: Screen<TextFormView, Store> {
    /// A form showing `model` over `store`.
    public init(model: TextFormModel, store: Store) {
        super.init(view: TextFormView(), store: store)
        rootView.model = model
    }

    /// The action that sends `text`. A subclass overrides it.
    open func action(for text: String) -> Store.Action {
        preconditionFailure("\(Self.self) does not say what its form sends")
    }

    /// The line the form shows when the store refused the action.
    open func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    /// Wires the view's interaction callbacks to the text, the store and navigation.
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
        dispatch(action(for: model.input.text)) { [weak self] result in
            guard let self, var model = rootView.model else { return }
            switch result {
            case .success:
                close()
            case .failure(let error):
                model.isSending = false
                model.error = describe(error)
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
