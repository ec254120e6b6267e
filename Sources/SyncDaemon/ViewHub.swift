import SyncProtocol
import SyncStore

/// The live view models: each distinct (view model, params) pair that has subscribers, its
/// latest encoded model, and who receives it.
///
/// On each new version every pair is computed once; if its model changed, the same encoded
/// model, and the same encoded patch from the previous model, serve all of its subscribers.
/// Every subscriber of a pair has last received the pair's current model (new subscribers get
/// it at once), so "changed for the pair" is "changed for each of them", and the one patch
/// applies to what each of them holds. A pair with no subscribers left is dropped.
/// Loop-confined: not `Sendable`.
final class ViewHub<State> {
    /// What a subscriber is told about a changed model.
    struct Change {
        /// The new model.
        let model: EncodedModel
        /// The encoded patch from the model of `base` to the new one, when the subscriber takes
        /// patches and one was computed.
        let patch: [UInt8]?
        /// The version of the model this subscriber held until now.
        let base: UInt64
    }

    /// How one subscriber takes its updates. A class, so that publishing updates the version
    /// in place instead of copying the subscriber table while it goes through it.
    private final class Delivery {
        /// The version of the last model sent to it.
        var version: UInt64
        /// Whether it asked for patches.
        let takesPatches: Bool

        init(version: UInt64, takesPatches: Bool) {
            self.version = version
            self.takesPatches = takesPatches
        }
    }

    /// A pair's model and who follows it.
    private final class Entry {
        let source: any ViewSource<State>
        var model: EncodedModel
        var subscribers: [ViewSubscriber: Delivery] = [:]
        var patchTakers = 0

        init(source: any ViewSource<State>, model: EncodedModel) {
            self.source = source
            self.model = model
        }
    }

    private var entries: [ViewKey: Entry] = [:]

    /// How many distinct pairs have subscribers.
    var count: Int { entries.count }

    /// Adds `subscriber` to the pair `key`, computing the pair at `state` if it is new, and
    /// records that it receives the model as of `version`. Returns the pair's current model.
    func subscribe(
        _ subscriber: ViewSubscriber, to key: ViewKey, takesPatches: Bool, makeSource: () -> any ViewSource<State>, state: State, version: UInt64
    ) -> [UInt8] {
        let entry: Entry
        if let existing = entries[key] {
            entry = existing
        } else {
            let source = makeSource()
            entry = Entry(source: source, model: source.render(state))
            entries[key] = entry
        }
        if entry.subscribers.updateValue(Delivery(version: version, takesPatches: takesPatches), forKey: subscriber) == nil, takesPatches {
            entry.patchTakers += 1
        }
        return entry.model.bytes
    }

    /// Removes `subscriber` from the pair `key`; drops the pair when nobody is left.
    func unsubscribe(_ subscriber: ViewSubscriber, from key: ViewKey) {
        guard let entry = entries[key], let delivery = entry.subscribers.removeValue(forKey: subscriber) else { return }
        if delivery.takesPatches { entry.patchTakers -= 1 }
        if entry.subscribers.isEmpty { entries[key] = nil }
    }

    /// Recomputes every pair at `state` (version `version`) and calls `deliver` for each
    /// subscriber of each pair whose model changed. A patch is computed only for pairs that
    /// have a subscriber taking patches.
    func publish(_ state: State, version: UInt64, deliver: (ViewSubscriber, Change) -> Void) {
        for entry in entries.values {
            guard let change = entry.source.renderChange(state, withPatch: entry.patchTakers > 0) else { continue }
            entry.model = change.model
            for (subscriber, delivery) in entry.subscribers {
                deliver(subscriber, Change(model: change.model, patch: delivery.takesPatches ? change.patch : nil, base: delivery.version))
                delivery.version = version
            }
        }
    }
}
