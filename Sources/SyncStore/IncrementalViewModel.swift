/// A view model that can be made from its previous version, so that the daemon's work per
/// version grows with the change rather than with the state.
///
/// The daemon keeps the last model of each subscribed view and, for these models, makes the next
/// one with `init(state:params:previous:)` instead of `init(state:params:)`. A list backed by a
/// `ChunkedArray` reuses the rows of every chunk the change did not touch (`ChunkDerivation`).
public protocol IncrementalViewModel: ViewModel {
    /// The model at `state`, reusing what it can of `previous`: this view's model, with the same
    /// params, at an earlier version. Must equal `init(state:params:)` on the same state.
    init?(state: State, params: Params, previous: Self)
}
