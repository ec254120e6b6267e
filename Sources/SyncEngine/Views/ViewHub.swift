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
///
/// A subscriber is *stale* when its client is not reading: its connection absorbed the last
/// change, holding a place for the newest model instead, and asks for it (`newestModel`) once
/// the socket can take it. Until then "received" means "will receive the pair's model as of
/// the version it was last told of". A pair whose subscribers are all stale is not computed at
/// all: it is marked outdated, and computed when one of them asks or someone subscribes, so a
/// client that stopped reading costs nothing per version.
/// Loop-confined: not `Sendable`.
final class ViewHub<State> {
    /// How one subscriber takes its updates. A class, so that publishing updates the version
    /// in place instead of copying the subscriber table while it goes through it.
    private final class Delivery {
        /// The version of the last model it was told of.
        var version: UInt64
        /// Whether it asked for patches.
        let takesPatches: Bool
        /// Whether its connection holds a place for the newest model (see the type's summary).
        var isStale = false

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
        /// Subscribers that are stale.
        var staleCount = 0
        /// Whether versions went by without computing the pair (every subscriber was stale):
        /// `model` may be older than the state.
        var isOutdated = false

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
        _ subscriber: ViewSubscriber, to key: ViewKey, takesPatches: Bool, makeSource: () -> any ViewSource<State>,
        state: State, version: UInt64
    ) -> EncodedModel {
        let entry: Entry
        if let existing = entries[key] {
            entry = existing
            bringUpToDate(entry, state: state, version: version)
        } else {
            let source = makeSource()
            entry = Entry(source: source, model: source.render(state))
            entries[key] = entry
        }
        if entry.subscribers.updateValue(Delivery(version: version, takesPatches: takesPatches), forKey: subscriber)
            == nil, takesPatches
        {
            entry.patchTakers += 1
        }
        return entry.model
    }

    /// The model of the pair `key` at `state` (the published state, at `version`) for a stale
    /// `subscriber` whose socket can now take it, and the version to send it as; the
    /// subscriber is no longer stale. `nil` when it does not follow the pair.
    func newestModel(of subscriber: ViewSubscriber, in key: ViewKey, state: State, version: UInt64) -> (
        version: UInt64, model: EncodedModel
    )? {
        guard let entry = entries[key], let delivery = entry.subscribers[subscriber] else { return nil }
        bringUpToDate(entry, state: state, version: version)
        if delivery.isStale {
            delivery.isStale = false
            entry.staleCount -= 1
        }
        return (delivery.version, entry.model)
    }

    /// Removes `subscriber` from the pair `key`; drops the pair when nobody is left.
    func unsubscribe(_ subscriber: ViewSubscriber, from key: ViewKey) {
        guard let entry = entries[key], let delivery = entry.subscribers.removeValue(forKey: subscriber) else { return }
        if delivery.takesPatches { entry.patchTakers -= 1 }
        if delivery.isStale { entry.staleCount -= 1 }
        if entry.subscribers.isEmpty { entries[key] = nil }
    }

    /// Recomputes every pair at `state` (version `version`) and calls `deliver` for each
    /// subscriber of each pair whose model changed; `deliver` returns whether the subscriber is
    /// stale. A patch is computed only for pairs that have a subscriber taking patches; a pair
    /// whose subscribers are all stale is only marked outdated.
    func publish(_ state: State, version: UInt64, deliver: (ViewSubscriber, ViewChange) -> Bool) {
        for entry in entries.values {
            guard entry.staleCount < entry.subscribers.count else {
                entry.isOutdated = true
                continue
            }
            guard let change = entry.source.renderChange(state, withPatch: entry.patchTakers > 0) else { continue }
            entry.model = change.model
            for (subscriber, delivery) in entry.subscribers {
                let isStale = deliver(
                    subscriber,
                    ViewChange(
                        model: change.model, patch: delivery.takesPatches ? change.patch : nil, base: delivery.version))
                if isStale, !delivery.isStale { entry.staleCount += 1 }
                delivery.isStale = delivery.isStale || isStale
                delivery.version = version
            }
        }
    }

    /// Computes an outdated pair at `state`. Every subscriber of an outdated pair is stale, so
    /// each will be sent the new model, as of `version`.
    private func bringUpToDate(_ entry: Entry, state: State, version: UInt64) {
        guard entry.isOutdated else { return }
        entry.isOutdated = false
        guard let change = entry.source.renderChange(state, withPatch: false) else { return }
        entry.model = change.model
        for delivery in entry.subscribers.values { delivery.version = version }
    }
}
