import SyncEngine
import SyncProtocol
import SyncStore

/// What a client hears of a dispatched side effect: its encoded result or its error. Not
/// nested in the generic `SideEffectCalls`, so that the task running it captures no app type.
enum SideEffectOutcome {

    /// Starts a task that runs `effect` in `context` and passes its outcome to `report`.
    static func launch<E: DispatchedSideEffect>(
        _ effect: E, in context: SideEffectContext<E.State, E.Dependencies>,
        report: @escaping @Sendable (Result<[UInt8], ProtocolError>) -> Void
    ) -> Task<Void, Never> {
        Task { report(await of(effect, in: context)) }
    }

    /// Runs `effect` in `context`: its result encoded, or the error it threw as the client gets
    /// it (a rejected action's error as it is, anything else `rejected` with its description).
    static func of<E: DispatchedSideEffect>(_ effect: E, in context: SideEffectContext<E.State, E.Dependencies>) async
        -> Result<[UInt8], ProtocolError>
    {
        do {
            let result = try await effect.run(context)
            return .success(try WireJSON.encode(result))
        } catch let error as ProtocolError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(.sideEffectCancelledByShutdown)
        } catch {
            return .failure(ProtocolError(.rejected, String(describing: error)))
        }
    }
}

/// How a call ended: its encoded result, or the error its client gets.
struct SideEffectCompletion: Sendable {
    /// Which call (`SideEffectCalls` numbers them).
    let callID: Int
    /// Its result or error.
    let outcome: Result<[UInt8], ProtocolError>
}
