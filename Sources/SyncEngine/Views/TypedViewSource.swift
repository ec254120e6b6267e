import SyncProtocol
import SyncStore

/// Computes one view model with fixed params and encodes it. Lets the hub hold pairs of any
/// view model type behind one existential.
protocol ViewSource<State>: AnyObject {
    associatedtype State
    /// The model at `state` (`null` when there is none).
    func render(_ state: State) -> EncodedModel
    /// The model at `state` and, if asked, the encoded JSON Patch from the last model
    /// rendered; `nil` when the model did not change.
    func renderChange(_ state: State, withPatch: Bool) -> (model: EncodedModel, patch: [UInt8]?)?
}

/// The `ViewSource` of view model `Model` with `params`. Remembers the last model so that a
/// state change that leaves it equal costs no encoding, and so that an `IncrementalViewModel`
/// is made from it. A `DiffableViewModel` lists its own changes, which become the patch; other
/// models are compared in their encoded form. A model known to be small goes whole: a patch
/// would save few bytes and cost each client more work than decoding the model.
final class TypedViewSource<Model: ViewModel>: ViewSource {
    /// Models whose last encoding was smaller than this are sent whole, not patched.
    static var smallModelByteCount: Int { 2048 }

    private let params: Model.Params
    private var lastModel: Model??
    private var lastEncoded = EncodedModel(bytes: [])
    /// `lastEncoded` as a JSON value, kept once a patch needed it.
    private var lastDocument: JSONValue?

    /// A source of `Model` for `params`.
    init(params: Model.Params) {
        self.params = params
    }

    func render(_ state: Model.State) -> EncodedModel {
        _ = renderChange(state, withPatch: false)
        return lastEncoded
    }

    func renderChange(_ state: Model.State, withPatch: Bool) -> (model: EncodedModel, patch: [UInt8]?)? {
        let withPatch = withPatch && (lastEncoded.encodedByteCount ?? Int.max) >= Self.smallModelByteCount
        let model = makeModel(state)
        if withPatch, case .some(.some(let old)) = lastModel, let model,
            let changes = Self.changes(from: old, to: model)
        {
            guard !changes.isEmpty else {
                rememberUnchanged(model)
                return nil
            }
            remember(model)
            do {
                return (lastEncoded, try JSONPatchWriter.encode(changes))
            } catch {
                preconditionFailure("a change of \(Model.wireName) failed to encode: \(error)")
            }
        }
        if let lastModel, lastModel == model {
            rememberUnchanged(model)
            return nil
        }
        let previous = withPatch && lastModel != nil ? (lastDocument ?? Self.document(lastEncoded.bytes)) : nil
        remember(model)
        guard let previous else { return (lastEncoded, nil) }
        let current = Self.document(lastEncoded.bytes)
        lastDocument = current
        do {
            return (lastEncoded, try JSONPatchWriter.encode(JSONPatch.changes(from: previous, to: current)))
        } catch {
            preconditionFailure("a patch of \(Model.wireName) failed to encode: \(error)")
        }
    }

    /// The model at `state`: from the last one where the model knows how (`IncrementalViewModel`).
    private func makeModel(_ state: Model.State) -> Model? {
        if case .some(.some(let previous)) = lastModel, let incremental = previous as? any IncrementalViewModel,
            let model = Self.model(following: incremental, state: state, params: params)
        {
            return model
        }
        return Model(state: state, params: params)
    }

    /// `Incremental`'s model at `state` made from `previous`; `nil` in the outer optional when the
    /// types do not line up (they always do: `previous` is a `Model`).
    private static func model<Incremental: IncrementalViewModel>(
        following previous: Incremental, state: Model.State, params: Model.Params
    ) -> Model?? {
        guard let state = state as? Incremental.State, let params = params as? Incremental.Params else { return nil }
        return .some(Incremental(state: state, params: params, previous: previous).flatMap { $0 as? Model })
    }

    /// Keeps `model`, equal to the last one, as the base of the next: an incremental model
    /// made from it follows the state it was made from, not an older one. The encodings stay.
    private func rememberUnchanged(_ model: Model?) {
        lastModel = .some(model)
    }

    private func remember(_ model: Model?) {
        lastModel = .some(model)
        lastDocument = nil
        lastEncoded = EncodedModel { Self.encodeWhole(model) }
    }

    /// The model's own list of changes, when it can make one.
    private static func changes(from old: Model, to new: Model) -> [ModelChange]? {
        guard let new = new as? any DiffableViewModel else { return nil }
        return changes(of: new, from: old)
    }

    private static func changes<Diffable: DiffableViewModel>(of new: Diffable, from old: Model) -> [ModelChange]? {
        (old as? Diffable).map { new.changes(from: $0) }
    }

    private static func encodeWhole(_ model: Model?) -> [UInt8] {
        do {
            return try WireJSON.encode(model)
        } catch {
            preconditionFailure("view model \(Model.wireName) failed to encode: \(error)")
        }
    }

    /// An encoded model read back as a JSON value (the generic patch is computed on the wire form).
    private static func document(_ encoded: [UInt8]) -> JSONValue {
        do {
            return try WireJSON.decode(JSONValue.self, from: encoded)
        } catch {
            preconditionFailure("view model \(Model.wireName) encoded to invalid JSON: \(error)")
        }
    }
}
