/// One model pushed for a subscription: the model at a state version.
public struct ViewModelUpdate<Model: Sendable>: Sendable {
    /// The state version the model reflects.
    public let version: UInt64
    /// The model; `nil` when the view model has none for these params (e.g. a missing item).
    public let model: Model?

    /// An update with its version and model.
    public init(version: UInt64, model: Model?) {
        self.version = version
        self.model = model
    }
}

extension ViewModelUpdate: Equatable where Model: Equatable {}
