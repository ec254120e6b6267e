/// What a screen sends its actions to: the store, seen from a screen. `SyncClient` satisfies
/// it through an adapter (see `SyncTerminalUI`); tests use a store that records what it receives.
///
/// Models come the other way, as `Feed`s the adapter makes (one per view model and params).
public protocol ScreenStore: Sendable {
    /// The actions screens may send.
    associatedtype Action: Sendable

    /// Sends `action`; throws if the store refused it or could not be reached.
    func dispatch(_ action: Action) async throws
}
