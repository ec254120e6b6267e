import CUV
import SyncLock

/// Carries values from any thread to the loop thread.
///
/// Other threads `post` through the `Sendable` `sender`; the loop thread receives every posted
/// value, in order, in `onReceive`. Posting after `close()` is refused (it returns `false`)
/// instead of touching a freed handle.
final class LoopInbox<Item: Sendable> {
    /// The thread-safe side: a queue under a mutex and the async handle to wake the loop.
    final class Sender: Sendable {
        private struct Queue {
            var items: [Item] = []
            var isOpen = true
        }
        private let queue = Locked(Queue())
        /// The async handle; `uv_async_send` is the one libuv call that is safe from any thread.
        /// Only used while `isOpen`, which `close()` clears under the same mutex before freeing.
        private nonisolated(unsafe) let wakeUp: UnsafeMutablePointer<uv_async_t>

        fileprivate init(wakeUp: UnsafeMutablePointer<uv_async_t>) {
            self.wakeUp = wakeUp
        }

        /// Queues `item` for the loop thread. Returns `false` if the inbox is closed.
        @discardableResult
        func post(_ item: Item) -> Bool {
            queue.withLock { queue in
                guard queue.isOpen else { return false }
                queue.items.append(item)
                uv_async_send(wakeUp)
                return true
            }
        }

        fileprivate func takeAll() -> [Item] {
            queue.withLock { queue in
                defer { queue.items.removeAll() }
                return queue.items
            }
        }

        fileprivate func shut() -> [Item] {
            queue.withLock { queue in
                queue.isOpen = false
                defer { queue.items.removeAll() }
                return queue.items
            }
        }
    }

    /// Hand this to other threads.
    let sender: Sender
    private let handle: LoopHandle<uv_async_t>

    /// An inbox on `loop` delivering to `onReceive` on the loop thread.
    init(loop: UnsafeMutablePointer<uv_loop_t>, onReceive: @escaping (Item) -> Void) throws(DaemonError) {
        handle = try .wakeUp(loop: loop, onFire: {})
        let sender = Sender(wakeUp: handle.handle)
        self.sender = sender
        handle.onFire = {
            for item in sender.takeAll() { onReceive(item) }
        }
    }

    /// Refuses further posts and closes the handle. Returns what was posted but not delivered.
    func close() -> [Item] {
        let undelivered = sender.shut()
        handle.close()
        return undelivered
    }
}
