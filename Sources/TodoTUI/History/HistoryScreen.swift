import TerminalUI
import TodoDomain

/// The read-only history mode of `todo tui`: steps through past versions, each loaded from
/// the daemon (the list as it was, and the action that made it). Presented modally over the
/// whole terminal, so no key reaches the screens that change things while it is shown.
public final class HistoryScreen: Screen<HistoryView, TodoStore> {
    private let history: TodoHistory

    /// History from `newest` back, of the list with `filter`, read from `history`.
    public init(newest: UInt64, filter: ListFilter, history: TodoHistory) {
        self.history = history
        super.init(view: HistoryView(), store: .inert)
        rootView.model = HistoryModel(version: newest, newest: newest, filter: filter)
    }

    /// The version shown.
    public var version: UInt64 { rootView.model?.version ?? 0 }

    /// The moment at the version shown.
    public override func subscriptions() -> [Subscription] {
        guard let model = rootView.model else { return [] }
        return [
            Subscription(
                history.moment(model.filter, model.version),
                onFailure: { [unowned self] error in
                    rootView.model?.failure = "version \(model.version): \(MainScreen.describe(error))"
                },
                { [unowned self] moment in receive(moment) })
        ]
    }

    /// Wires the view's interaction callbacks to stepping and closing.
    public override func setupInteraction() {
        rootView.didStep = { [unowned self] delta in
            guard let model = rootView.model else { return }
            go(to: delta < 0 ? (model.version == 0 ? 0 : model.version - 1) : min(model.newest, model.version + 1))
        }
        rootView.didJump = { [unowned self] version in go(to: version) }
        rootView.didClose = { [unowned self] in
            do {
                try hide(routeIdentifier)
            } catch {
                didFail(error)
            }
        }
    }

    /// A moment from the daemon (or a test): shown if it is the version asked for.
    func receive(_ moment: HistoryMoment) {
        guard moment.version == rootView.model?.version else { return }
        rootView.model?.moment = moment
        rootView.model?.failure = nil
    }

    private func go(to version: UInt64) {
        guard var model = rootView.model, version != model.version else { return }
        model.version = version
        model.failure = nil
        rootView.model = model
        resubscribe()
    }
}
