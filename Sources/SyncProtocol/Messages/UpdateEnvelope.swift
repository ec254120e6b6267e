/// The patch of an `update` message that carries one.
public struct PatchEnvelope: Decodable {
    /// The decoded patch.
    public let patch: JSONPatch
}

/// The model of an `update` message, decoded as `Model`; `nil` when the model is `null`.
public struct UpdateEnvelope<Model: Decodable>: Decodable {
    /// The decoded model.
    public let model: Model?

    /// Decodes the `model` member. Written out with a key type of its own: the synthesized
    /// one would be generic, its metadata looked up again for every update a client decodes.
    public init(from decoder: any Decoder) throws {
        model = try decoder.container(keyedBy: UpdateEnvelopeKey.self).decodeIfPresent(Model.self, forKey: .model)
    }
}

/// The one key `UpdateEnvelope` reads.
private enum UpdateEnvelopeKey: String, CodingKey {
    case model
}
