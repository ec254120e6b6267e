#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The clock side effects and acceptance read: wall time in milliseconds, and sleeping on it.
/// The daemon gets `SystemClock`; tests get one they advance.
public protocol WallClock: Sendable {
    /// The time now, in whole milliseconds since the Unix epoch.
    func now() -> Int64
    /// Returns once `milliseconds` have passed on this clock; throws `CancellationError` when
    /// the task is cancelled first.
    func sleep(milliseconds: Int64) async throws
}

/// Where fresh identifiers come from: random in the daemon, a fixed sequence in tests.
public protocol IDSource: Sendable {
    /// The next identifier.
    func next() -> UUID
}

/// What the app gives its side effects (and acceptance): at least a clock and an id source,
/// plus whatever it adds (an HTTP client, a mailer). The daemon is given one at start; a test
/// gives test ones. Katana's dependency container.
public protocol SideEffectDependencies: Sendable {
    /// The clock.
    var clock: any WallClock { get }
    /// The id source.
    var ids: any IDSource { get }
}

extension SideEffectDependencies {
    /// The acceptance context of an action accepted now: the clock's time and the next id.
    public func acceptanceContext() -> AcceptanceContext {
        AcceptanceContext(identifier: ids.next(), millisecondsSinceEpoch: clock.now())
    }
}

/// The dependencies of an app that needs only a clock and ids.
public struct StandardDependencies: SideEffectDependencies {
    /// The clock acceptance and side effects read.
    public var clock: any WallClock
    /// Where acceptance draws action ids.
    public var ids: any IDSource

    /// Dependencies from a clock and an id source; by default the live ones.
    public init(clock: any WallClock = SystemClock(), ids: any IDSource = RandomIDs()) {
        self.clock = clock
        self.ids = ids
    }
}

/// The system's wall clock; sleeps with `Task.sleep`.
public struct SystemClock: WallClock {
    /// The system clock.
    public init() {}

    /// Milliseconds since the Unix epoch, now.
    public func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Sleeps for `milliseconds` (throws when the task is cancelled).
    public func sleep(milliseconds: Int64) async throws {
        try await Task.sleep(for: .milliseconds(max(0, milliseconds)))
    }
}

/// Random version 4 UUIDs from the system generator.
public struct RandomIDs: IDSource {
    /// The system's random ids.
    public init() {}

    /// A new random id.
    public func next() -> UUID {
        AcceptanceContext.randomUUID()
    }
}
