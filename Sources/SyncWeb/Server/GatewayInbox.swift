import CWebSockets
import SyncLock
import SyncProtocol

/// What other threads hand the gateway's thread: the daemon's models, answers and connection
/// state, and the request to stop.
enum InboxEvent: Sendable {
    /// A model of a feed.
    case model(FeedKey, version: UInt64, model: JSONValue)
    /// A dispatch's answer.
    case answered(SessionID, requestID: Int64, DispatchAnswer)
    /// The daemon connection's state.
    case daemon(live: Bool, version: UInt64?)
    /// Stop serving.
    case stop
}

/// The gateway thread's mailbox: events queue under a lock and libwebsockets' cancel wakes the
/// thread, which drains them in `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. Posting after the context
/// is gone does nothing.
final class GatewayInbox: Sendable {
    private struct Box {
        var events: [InboxEvent] = []
        /// The context's address while it exists (libwebsockets' cancel is thread-safe).
        var context: UInt?
    }

    private let box = Locked(Box())

    /// Sets (or, with `nil`, clears) the context to wake, one created through
    /// `WebSocketsLibrary.shared`.
    func attach(_ context: OpaquePointer?) {
        box.withLock { $0.context = context.map { UInt(bitPattern: $0) } }
    }

    /// Queues `event` and wakes the gateway's thread.
    func post(_ event: InboxEvent) {
        box.withLock { box in
            guard let context = box.context else { return }
            box.events.append(event)
            WebSocketsLibrary.shared.functions.pointee.cancel_service(OpaquePointer(bitPattern: context))
        }
    }

    /// Everything queued so far, oldest first.
    func drain() -> [InboxEvent] {
        box.withLock { box in
            defer { box.events = [] }
            return box.events
        }
    }
}
