import CUV
import SyncLock

/// A `BackgroundThread` whose findings reach the loop thread: `body` runs on the thread with the
/// sender of an inbox and a test of whether `stop()` was called; what it posts reaches
/// `onReceive` on the loop thread, in order. Loop-confined itself; not `Sendable`.
final class InboxThread<Item: Sendable> {
    private let inbox: LoopInbox<Item>
    private let stopping = Locked(false)
    private var thread: BackgroundThread?

    /// Starts the thread; `subject` names it in an error.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, subject: String, onReceive: @escaping (Item) -> Void,
        body:
            @escaping @Sendable (_ sender: LoopInbox<Item>.Sender, _ isStopping: @escaping @Sendable () -> Bool) ->
            Void
    ) throws(DaemonError) {
        inbox = try LoopInbox(loop: loop, onReceive: onReceive)
        let sender = inbox.sender
        let stopping = stopping
        do {
            thread = try BackgroundThread(subject) { body(sender, { stopping.withLock { $0 } }) }
        } catch {
            _ = inbox.close()
            throw error
        }
    }

    /// Asks `body` to stop, waits until it returned, and closes the inbox. Safe to call more
    /// than once.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        stopping.withLock { $0 = true }
        thread.join()
        _ = inbox.close()
    }
}
