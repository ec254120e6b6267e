import SyncStore

/// A tiny app for testing the test store: a counter, stamped entries, a side effect.
enum CounterApp: SyncApp {
    static let identity = AppIdentity(name: "counter", version: "0.0.0")
    struct State: Codable, Equatable, Sendable {
        var count = 0
        var stamps: [Stamp] = []
    }

    struct Stamp: Codable, Equatable, Sendable {
        var id: String
        var at: Int64
    }

    static let initialState = State()
    static let actions: [any Action<State>.Type] = [
        Increment.self, StampNow.self, ForgetfulStamp.self, ForgetfulCountStamp.self, UndeclaredCountStamp.self,
    ]
    static let sideEffects: [any DispatchedSideEffect<State, StandardDependencies>.Type] = [
        IncrementTwice.self, IncrementLater.self, IncrementAfterRealTime.self,
    ]
    static let viewModels: [any ViewModel<State>.Type] = [CountModel.self]
}

struct TooLarge: Error, Equatable {}

/// Adds `by`; refuses to go past 10.
struct Increment: Action {
    static let wireName = "increment"
    var by = 1

    func update(_ state: inout CounterApp.State) throws {
        guard state.count + by <= 10 else { throw TooLarge() }
        state.count += by
    }
}

/// Appends a stamp with the id and time fixed at acceptance.
struct StampNow: Action {
    static let wireName = "stampNow"
    var id: String?
    var at: Int64?

    mutating func accept(_ context: AcceptanceContext, state: CounterApp.State) {
        id = context.identifier.uuidString.lowercased()
        at = context.millisecondsSinceEpoch
    }

    func update(_ state: inout CounterApp.State) throws {
        state.stamps.append(CounterApp.Stamp(id: id ?? "", at: at ?? 0))
    }
}

/// Dispatches two increments and answers the count it read at the start.
struct IncrementTwice: DispatchedSideEffect {
    static let wireName = "incrementTwice"

    func run(_ context: SideEffectContext<CounterApp.State, StandardDependencies>) async throws -> Int {
        let start = context.currentState().state.count
        _ = try await context.dispatch(Increment())
        _ = try await context.dispatch(Increment())
        return start
    }
}

/// Increments each time the clock passes another `interval`.
struct Ticker: SideEffect {
    var interval: Int64

    func run(_ context: SideEffectContext<CounterApp.State, StandardDependencies>) async {
        while true {
            do {
                try await context.dependencies.clock.sleep(milliseconds: interval)
            } catch {
                return
            }
            _ = try? await context.dispatch(Increment())
        }
    }
}

/// An action the app does not register.
struct Unregistered: Action {
    static let wireName = "unregistered"

    func update(_ state: inout CounterApp.State) throws {}
}

/// Stamps like `StampNow`, but its `Codable` leaves out the time acceptance fixed: the journal
/// keeps it as received and accepts it again on replay, which stamps the same time.
struct ForgetfulStamp: Action {
    static let wireName = "forgetfulStamp"
    var at: Int64?

    enum CodingKeys: CodingKey {}

    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws { _ = encoder.container(keyedBy: CodingKeys.self) }

    mutating func accept(_ context: AcceptanceContext, state: CounterApp.State) {
        at = context.millisecondsSinceEpoch
    }

    func update(_ state: inout CounterApp.State) throws {
        state.stamps.append(CounterApp.Stamp(id: "", at: at ?? 0))
    }
}

/// Stamps the count its acceptance read from the state, as it declares; its `Codable` leaves
/// the count out, so its journaled (accepted) form replays as a stamp of 0.
struct ForgetfulCountStamp: Action {
    static let wireName = "forgetfulCountStamp"
    static let acceptanceReadsState = true
    var seen: Int?

    enum CodingKeys: CodingKey {}

    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws { _ = encoder.container(keyedBy: CodingKeys.self) }

    mutating func accept(_ context: AcceptanceContext, state: CounterApp.State) {
        seen = state.count
    }

    func update(_ state: inout CounterApp.State) throws {
        state.stamps.append(CounterApp.Stamp(id: "count", at: Int64(seen ?? 0)))
    }
}

/// Stamps the count its acceptance read from the state, without declaring `acceptanceReadsState`.
struct UndeclaredCountStamp: Action {
    static let wireName = "undeclaredCountStamp"
    var seen: Int?

    init() {}

    mutating func accept(_ context: AcceptanceContext, state: CounterApp.State) {
        seen = state.count
    }

    func update(_ state: inout CounterApp.State) throws {
        state.stamps.append(CounterApp.Stamp(id: "count", at: Int64(seen ?? 0)))
    }
}

/// Sleeps `milliseconds` on the clock, then increments.
struct IncrementLater: DispatchedSideEffect {
    static let wireName = "incrementLater"
    var milliseconds: Int64

    func run(_ context: SideEffectContext<CounterApp.State, StandardDependencies>) async throws -> Int {
        try await context.dependencies.clock.sleep(milliseconds: milliseconds)
        return Int(try await context.dispatch(Increment()))
    }
}

/// Waits `milliseconds` of real time (not on the dependencies' clock), then increments.
struct IncrementAfterRealTime: DispatchedSideEffect {
    static let wireName = "incrementAfterRealTime"
    var milliseconds: Int64

    func run(_ context: SideEffectContext<CounterApp.State, StandardDependencies>) async throws -> Int {
        try await Task.sleep(for: .milliseconds(milliseconds))
        return Int(try await context.dispatch(Increment()))
    }
}

/// The count.
struct CountModel: ViewModel {
    static let wireName = "count"
    var count: Int

    init(state: CounterApp.State, params: NoParams) {
        count = state.count
    }
}

/// A view model the app does not register.
struct UnregisteredModel: ViewModel {
    static let wireName = "unregisteredModel"

    init(state: CounterApp.State, params: NoParams) {}
}
