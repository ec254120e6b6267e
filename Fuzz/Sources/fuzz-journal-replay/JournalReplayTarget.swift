import FuzzSupport
import SyncProtocol
import SyncStore
import TodoDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Journal entries decoded into the todo app's actions as recovery does (the action type found
/// by name in an `ActionDirectory`, its journaled payload decoded with `WireJSON.decode`, and,
/// for an action the journal keeps as received, accepted again with the entry's context), applied
/// to a store, from a state with done and open items and undo steps:
///
/// - only valid JSON decodes;
/// - a rejected action leaves the state as it was (the `Action` contract recovery relies on);
/// - an action kept as received is accepted to the same action on any state (its acceptance
///   reads only the context, as it declares), so a replay, or a rebase on another state,
///   repeats what the daemon did;
/// - an action kept as accepted (`acceptanceReadsState`, applied as it is): what the daemon
///   would journal for it (`WireJSON.encode`) decodes to an action that does exactly the same to
///   the same state.
///
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalReplay(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var source = ByteSource(bytes(data, size))
    let names = TodoApp.actions.map { $0.wireName }
    let choice = source.below(names.count + 1)
    let name = choice < names.count ? names[choice] : String(decoding: source.rest.prefix(6), as: UTF8.self)
    guard let type = directory[name] else { return 0 }
    replay(type, payload: source.rest)
    return 0
}

let directory = ActionDirectory<TodoState>(TodoApp.actions)

/// Three items (the second done), added, completed and edited as the daemon would.
let startStore: Store<TodoState> = {
    var store = Store(state: TodoApp.initialState)
    var clock: Int64 = 1_700_000_000_000
    func applyAccepted<A: Action<TodoState>>(_ action: A) {
        var action = action
        clock += 1
        let digits = String(clock % 1_000_000)
        let identifier = UUID(
            uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
        let context = AcceptanceContext(identifier: identifier, millisecondsSinceEpoch: clock)
        action.accept(context, state: store.state)
        _ = try? store.apply(action)
    }
    applyAccepted(AddItem(text: "buy milk"))
    applyAccepted(AddItem(text: "walk the dog"))
    applyAccepted(AddItem(text: "é ✓"))
    applyAccepted(CompleteItem(number: 2))
    applyAccepted(EditItem(number: 3, text: "edited"))
    return store
}()

/// The context every fuzzed entry is accepted with.
let context = AcceptanceContext(
    identifier: UUID(uuidString: "00000000-0000-4000-8000-00000000abcd")!, millisecondsSinceEpoch: 1_800_000_000_000)

func replay<A: Action<TodoState>>(_ type: A.Type, payload: [UInt8]) {
    guard let received = try? WireJSON.decode(A.self, from: payload) else { return }
    check(ReferenceJSON.parse(payload) != nil, "\"\(A.wireName)\" decoded from invalid JSON")
    // Kept as received: accepted again with the entry's context. Kept as accepted: as it is.
    var action = received
    if !A.acceptanceReadsState { action.accept(context, state: startStore.state) }
    var store = startStore
    let outcome = Result { try store.apply(action) }
    if case .failure = outcome {
        check(
            store.state == startStore.state && store.version == startStore.version,
            "a rejected \"\(A.wireName)\" changed the state")
    }
    guard let encoded = try? WireJSON.encode(action) else {
        check(false, "a decoded \"\(A.wireName)\" does not encode")
        return
    }
    let again: A
    if A.acceptanceReadsState {
        guard let decoded = try? WireJSON.decode(A.self, from: encoded) else {
            check(false, "the journaled \"\(A.wireName)\" does not decode: \(String(decoding: encoded, as: UTF8.self))")
            return
        }
        again = decoded
    } else {
        var elsewhere = received
        elsewhere.accept(context, state: TodoApp.initialState)
        check(
            (try? WireJSON.encode(elsewhere)) == encoded,
            "\"\(A.wireName)\" reads the state in its acceptance without declaring acceptanceReadsState")
        again = elsewhere
    }
    var replayed = startStore
    let replayOutcome = Result { try replayed.apply(again) }
    check(
        replayed.state == store.state && replayed.version == store.version,
        "a replay of \"\(A.wireName)\" gave another state")
    check("\(outcome)" == "\(replayOutcome)", "\"\(A.wireName)\" gave \(outcome), its replay \(replayOutcome)")
}
