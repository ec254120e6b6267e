import SyncProtocol
import SyncStore

/// The live view models: each distinct (view model, params) pair that has subscribers, its
/// latest encoded model, and who receives it.
///
/// On each new version every pair is computed once; if its encoded model changed, the same bytes
/// go to all of its subscribers. Every subscriber of a pair has last received the pair's current
/// model (new subscribers get it at once), so "changed for the pair" is "changed for each of
/// them". A pair with no subscribers left is dropped. Loop-confined: not `Sendable`.
final class ViewHub<State> {
    /// Identifies one distinct (view model, params) pair.
    struct Key: Hashable {
        let viewModel: String
        let params: AnyHashable
    }

    /// One subscriber of a pair: a connection and the subscription id it chose for it.
    struct Subscriber: Hashable {
        let connectionID: Int
        let subscription: Int64
    }

    /// A pair's model, kept encoded so unchanged models cost one comparison.
    final class Entry {
        let source: any ViewSource<State>
        var model: [UInt8]
        var subscribers: Set<Subscriber> = []

        init(source: any ViewSource<State>, model: [UInt8]) {
            self.source = source
            self.model = model
        }
    }

    private var entries: [Key: Entry] = [:]

    /// How many distinct pairs have subscribers.
    var count: Int { entries.count }

    /// Adds `subscriber` to the pair `key`, computing the pair at `state` if it is new.
    /// Returns the pair's current encoded model.
    func subscribe(_ subscriber: Subscriber, to key: Key, makeSource: () -> any ViewSource<State>, state: State) -> [UInt8] {
        let entry: Entry
        if let existing = entries[key] {
            entry = existing
        } else {
            let source = makeSource()
            entry = Entry(source: source, model: source.render(state))
            entries[key] = entry
        }
        entry.subscribers.insert(subscriber)
        return entry.model
    }

    /// Removes `subscriber` from the pair `key`; drops the pair when nobody is left.
    func unsubscribe(_ subscriber: Subscriber, from key: Key) {
        guard let entry = entries[key] else { return }
        entry.subscribers.remove(subscriber)
        if entry.subscribers.isEmpty { entries[key] = nil }
    }

    /// Recomputes every pair at `state` and calls `deliver` for each subscriber of each pair
    /// whose model changed, with the new encoded model.
    func publish(_ state: State, deliver: (Subscriber, [UInt8]) -> Void) {
        for entry in entries.values {
            let model = entry.source.render(state)
            guard model != entry.model else { continue }
            entry.model = model
            for subscriber in entry.subscribers { deliver(subscriber, model) }
        }
    }
}

/// Computes one view model with fixed params and encodes it. Lets the hub hold pairs of any
/// view model type behind one existential.
protocol ViewSource<State>: AnyObject {
    associatedtype State
    /// The encoded model at `state` (`null` when there is none).
    func render(_ state: State) -> [UInt8]
}

/// The `ViewSource` of view model `Model` with `params`. Remembers the last model so that a
/// state change that leaves it equal costs no encoding.
final class TypedViewSource<Model: ViewModel>: ViewSource {
    private let params: Model.Params
    private var lastModel: Model??
    private var lastEncoded: [UInt8] = []
    private let encoder = WireJSON.makeEncoder()

    /// A source of `Model` for `params`.
    init(params: Model.Params) {
        self.params = params
    }

    func render(_ state: Model.State) -> [UInt8] {
        let model = Model(state: state, params: params)
        if let lastModel, lastModel == model { return lastEncoded }
        lastModel = .some(model)
        do {
            lastEncoded = Array(try encoder.encode(model))
        } catch {
            preconditionFailure("view model \(Model.wireName) failed to encode: \(error)")
        }
        return lastEncoded
    }
}
