/// A view model that can say how it changed, so the daemon sends subscribers the change
/// instead of the whole model, without encoding or comparing the whole model on every version.
///
/// Without this conformance the daemon still sends changes to clients that take them, but finds
/// them by comparing the encoded models: work that grows with the model, not with the change.
public protocol DiffableViewModel: ViewModel {
    /// The changes that turn the encoded form of `old` into the encoded form of `self`, in
    /// order (each applies to what the ones before it left); empty when they are equal.
    func changes(from old: Self) -> [ModelChange]
}
