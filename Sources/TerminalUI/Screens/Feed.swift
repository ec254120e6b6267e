/// A live source of values a screen listens to while it is connected: a view model from the
/// daemon, a connection state. Opening it starts a subscription; ending the iteration (the
/// screen disconnecting cancels its task) ends it.
public struct Feed<Value: Sendable>: Sendable {
    /// Names the feed in failures and tests (`list all`).
    public let name: String
    private let makeStream: @Sendable () -> AsyncThrowingStream<Value, any Error>

    /// A feed called `name` that opens `makeStream()` on each subscription.
    public init(_ name: String, _ makeStream: @escaping @Sendable () -> AsyncThrowingStream<Value, any Error>) {
        self.name = name
        self.makeStream = makeStream
    }

    /// Starts a subscription.
    public func open() -> AsyncThrowingStream<Value, any Error> {
        makeStream()
    }

    /// A feed that yields `values` and ends: for previews and tests.
    public static func just(_ name: String, _ values: [Value]) -> Feed {
        Feed(name) {
            AsyncThrowingStream { continuation in
                for value in values { continuation.yield(value) }
                continuation.finish()
            }
        }
    }
}
