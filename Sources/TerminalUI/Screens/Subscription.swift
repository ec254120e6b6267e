/// A feed a screen listens to while it is connected, and what to do with each value.
///
/// The screen opens the feed in a task of its own when it connects (on becoming visible, by
/// default) and cancels that task when it disconnects, which ends the feed's subscription.
@MainActor
public struct Subscription {
    /// The feed's name.
    public let name: String
    private let start: @MainActor (_ didChange: @escaping @MainActor () -> Void) -> Task<Void, Never>

    /// Listens to `feed`, passing each value to `apply`; `onFailure` hears how it failed (not
    /// called when the screen disconnected on purpose).
    public init<Value: Sendable>(
        _ feed: Feed<Value>, onFailure: (@MainActor (any Error) -> Void)? = nil,
        _ apply: @escaping @MainActor (Value) -> Void
    ) {
        name = feed.name
        start = { didChange in
            Task { @MainActor in
                do {
                    for try await value in feed.open() {
                        guard !Task.isCancelled else { return }
                        apply(value)
                        didChange()
                    }
                } catch {
                    guard !Task.isCancelled else { return }
                    onFailure?(error)
                    didChange()
                }
            }
        }
    }

    /// Opens the feed; `didChange` runs after each value is applied.
    func run(didChange: @escaping @MainActor () -> Void) -> Task<Void, Never> {
        start(didChange)
    }
}
