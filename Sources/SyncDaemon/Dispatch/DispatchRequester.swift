/// Who is waiting for the outcome of a dispatch. Not nested in the generic `Server`, so that
/// the loop does not look up its type metadata at run time on every dispatch.
enum DispatchRequester {
    /// A client's `dispatch` request.
    case client(connectionID: Int, requestID: Int64)
    /// A side effect running off the loop.
    case sideEffect(CheckedContinuation<UInt64, any Error>)
}
