/// The dispatches whose answer waits for the journal, in one place: applied and waiting for
/// their commit, or durable and waiting for the end of the pass to be acked (after that pass's
/// updates). A duplicate of a numbered dispatch waits beside its original.
///
/// ```
/// add ─▶ awaitingDurability ─markDurable(through:)─▶ durable ─takeDurable()─▶ acks
///              └─takeAwaiting()─▶ failed (a commit failed) or moved (a rebase)
/// ```
struct PendingAcks {
    /// Who waits and the version whose durability it waits for.
    typealias Entry = (requester: DispatchRequester, version: UInt64)

    /// Applied, commit pending; in arrival order.
    private var awaitingDurability: [Entry] = []
    /// Durable, not yet answered.
    private var durable: [Entry] = []

    /// Whether nothing waits.
    var isEmpty: Bool { awaitingDurability.isEmpty && durable.isEmpty }

    /// Whether an ack is ready for the end of the pass.
    var hasDurable: Bool { !durable.isEmpty }

    /// Adds `requester`, waiting for `version`, which is already durable if it is at or below
    /// `durableVersion`.
    mutating func add(_ requester: DispatchRequester, version: UInt64, durableVersion: UInt64) {
        if version <= durableVersion {
            durable.append((requester, version))
        } else {
            awaitingDurability.append((requester, version))
        }
    }

    /// Moves everything at or below `version` to the durable ones (mostly in version order, but
    /// a duplicate waits behind later dispatches).
    mutating func markDurable(through version: UInt64) {
        durable.append(contentsOf: awaitingDurability.filter { $0.version <= version })
        awaitingDurability.removeAll { $0.version <= version }
    }

    /// Takes the durable ones, to be acked.
    mutating func takeDurable() -> [Entry] {
        defer { durable.removeAll(keepingCapacity: true) }
        return durable
    }

    /// Takes every one still waiting for its commit, to be failed or moved.
    mutating func takeAwaiting() -> [Entry] {
        defer { awaitingDurability.removeAll() }
        return awaitingDurability
    }
}
