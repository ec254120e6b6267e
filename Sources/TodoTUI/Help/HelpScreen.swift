import TerminalUI

/// The help overlay; any key closes it.
public final class HelpScreen: Screen<HelpView, TodoStore> {
    /// The help (it sends no actions; the store is there for the type).
    public init() {
        super.init(view: HelpView(), store: .inert)
        rootView.model = "Keys"
    }

    /// Wires the view's interaction callbacks to actions and navigation.
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
