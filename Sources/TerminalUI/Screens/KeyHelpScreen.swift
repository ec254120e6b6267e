/// The screen of a `KeyHelpView`, presented modally from an app's route (`.presentModally`);
/// any key hides it. It sends no actions: the store is there for the screen's type.
public final class KeyHelpScreen<Store: ScreenStore>: Screen<KeyHelpView, Store> {
    /// A help titled `title` listing `keys`, over `store` (an app's inert one).
    public init(title: String = "Keys", keys: [(key: String, action: String)], store: Store) {
        super.init(view: KeyHelpView(keys: keys), store: store)
        rootView.model = title
    }

    /// Hides the help when the view says it closed.
    public override func setupInteraction() {
        rootView.didClose = { [unowned self] in
            do {
                try hide(routeIdentifier)
            } catch {
                didFail(error)
            }
        }
    }
}
