/// A screen with its view and its store: Tempura's `ViewController<View>`.
///
/// The screen owns `rootView`, sets its model from what its subscriptions deliver and from
/// its own state, wires the view's interaction callbacks (in `setupInteraction`) to
/// `dispatch` and to navigation, and never draws itself.
///
/// ```swift
/// final class CounterScreen: Screen<CounterView, CounterStore> {
///     override func subscriptions() -> [Subscription] {
///         [Subscription(store.counter) { [unowned self] count in rootView.model = CounterModel(count: count) }]
///     }
///     override func setupInteraction() {
///         rootView.didIncrement = { [unowned self] in dispatch(.increment) }
///     }
/// }
/// ```
open class Screen<View: ModellableView, Store: ScreenStore>: ScreenNode {
    /// The view this screen shows.
    public let rootView: View
    /// Where actions go.
    public let store: Store
    /// This screen's dispatches, in the order they were made.
    private lazy var actions = ActionQueue(store: store)

    /// A screen showing `view`, dispatching to `store`.
    public init(view: View, store: Store) {
        rootView = view
        self.store = store
        super.init()
    }

    /// Sends `action` to the store, after every action this screen dispatched before it was
    /// answered, so the store receives a screen's actions in the order they were made. A
    /// failure goes to `completion` if given, else to `didFail` (Tempura's dispatch returns
    /// nothing: screens hold no logic about results beyond closing a form on success).
    public func dispatch(_ action: Store.Action, then completion: (@MainActor (Result<Void, any Error>) -> Void)? = nil)
    {
        actions.enqueue(action) { [weak self] result in
            if let completion {
                completion(result)
            } else if case .failure(let error) = result {
                self?.didFail(error)
            }
            self?.setNeedsRender()
        }
    }

    override var viewCanvas: Canvas { rootView.canvas }
    override func layoutView(size: Size) { rootView.layout(size: size) }
    override func viewHandles(_ key: Key) -> Bool { rootView.handle(key) }
    override var viewCursor: Position? { rootView.cursor }
    override func preferredViewSize(in available: Size) -> Size { rootView.preferredSize(in: available) }
}
