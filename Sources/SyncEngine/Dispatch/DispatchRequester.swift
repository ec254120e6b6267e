/// Who is waiting for the outcome of a dispatch. Not nested in the generic `Engine`, so that
/// the loop does not look up its type metadata at run time on every dispatch.
enum DispatchRequester: Equatable {
    /// A client's `dispatch` request, awaited in the engine's `RequestBook` under this token.
    case client(RequestBook.Token)
    /// A side effect running off the loop, waiting on this reply (`answerSideEffectDispatch`).
    case sideEffect(reply: UInt64)
    /// One of the app's schedules, by index (`Engine+Schedules.swift`).
    case schedule(Int)
}
