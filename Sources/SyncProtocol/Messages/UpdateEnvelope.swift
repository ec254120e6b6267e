/// The patch of an `update` message that carries one.
public struct PatchEnvelope: Decodable {
    /// The decoded patch.
    public let patch: JSONPatch
}

/// The model of an `update` message, decoded as `Model`; `nil` when the model is `null`.
public struct UpdateEnvelope<Model: Decodable>: Decodable {
    /// The decoded model.
    public let model: Model?
}
