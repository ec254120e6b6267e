import SyncProtocol
import SyncStore

/// Computes one view model with fixed params and encodes it. Lets the hub hold pairs of any
/// view model type behind one existential.
protocol ViewSource<State>: AnyObject {
    associatedtype State
    /// The encoded model at `state` (`null` when there is none).
    func render(_ state: State) -> [UInt8]
    /// The encoded model at `state` and, if asked, the encoded JSON Patch from the last model
    /// rendered; `nil` when the model did not change.
    func renderChange(_ state: State, withPatch: Bool) -> (model: [UInt8], patch: [UInt8]?)?
}

/// The `ViewSource` of view model `Model` with `params`. Remembers the last model so that a
/// state change that leaves it equal costs no encoding.
final class TypedViewSource<Model: ViewModel>: ViewSource {
    private let params: Model.Params
    private var lastModel: Model??
    private var lastEncoded: [UInt8] = []
    /// `lastEncoded` as a JSON value, kept once a patch needed it.
    private var lastDocument: JSONValue?
    private let encoder = WireJSON.makeEncoder()

    /// A source of `Model` for `params`.
    init(params: Model.Params) {
        self.params = params
    }

    func render(_ state: Model.State) -> [UInt8] {
        _ = renderChange(state, withPatch: false)
        return lastEncoded
    }

    func renderChange(_ state: Model.State, withPatch: Bool) -> (model: [UInt8], patch: [UInt8]?)? {
        let model = Model(state: state, params: params)
        if let lastModel, lastModel == model { return nil }
        let previous = withPatch && lastModel != nil ? (lastDocument ?? document(lastEncoded)) : nil
        lastModel = .some(model)
        do {
            lastEncoded = Array(try encoder.encode(model))
        } catch {
            preconditionFailure("view model \(Model.wireName) failed to encode: \(error)")
        }
        lastDocument = nil
        guard let previous else { return (lastEncoded, nil) }
        let current = document(lastEncoded)
        lastDocument = current
        do {
            return (lastEncoded, try WireJSON.encode(JSONPatch(from: previous, to: current)))
        } catch {
            preconditionFailure("a patch of \(Model.wireName) failed to encode: \(error)")
        }
    }

    /// An encoded model read back as a JSON value (the patch is computed on the wire form).
    private func document(_ encoded: [UInt8]) -> JSONValue {
        do {
            return try WireJSON.decode(JSONValue.self, from: encoded)
        } catch {
            preconditionFailure("view model \(Model.wireName) encoded to invalid JSON: \(error)")
        }
    }
}
