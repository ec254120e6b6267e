/// What one subscriber is told about a changed model (see `ViewHub.publish`). Not nested in the
/// generic hub, so that its type metadata is not looked up at run time on every use.
struct ViewChange {
    /// The new model, encoded only if someone needs it whole.
    let model: EncodedModel
    /// The encoded patch from the model of `base` to the new one, when the subscriber takes
    /// patches and one was computed.
    let patch: [UInt8]?
    /// The version of the model this subscriber held until now.
    let base: UInt64
}
