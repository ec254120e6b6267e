import CEpoll
import Glibc

/// An epoll instance watching sockets for input, for the clients that read many connections
/// on one thread (the pipelined load generator, the raw fan-out subscribers) as a server's
/// event loop does. Level-triggered: a socket with unread bytes is reported again.
///
/// Used by one thread at a time (made on one, then handed to the thread that waits on it).
final class EventPoll: @unchecked Sendable {
    // @unchecked: `events` is only touched by the one waiting thread.
    private let descriptor: Int32
    private var events: [epoll_event]

    /// A new epoll instance reporting up to `capacity` ready sockets per wait.
    init(capacity: Int) throws(BenchError) {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else {
            throw .process(name: "todo-bench", reason: "epoll_create1: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        events = [epoll_event](repeating: epoll_event(), count: max(1, capacity))
    }

    deinit {
        close(descriptor)
    }

    /// Watches `socket` for input; `wait` reports it as `tag`.
    func watch(_ socket: Int32, tag: Int) throws(BenchError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = UInt64(tag)
        guard epoll_ctl(descriptor, EPOLL_CTL_ADD, socket, &event) == 0 else {
            throw .process(name: "todo-bench", reason: "epoll_ctl: \(String(cString: strerror(errno)))")
        }
    }

    /// Waits up to `timeoutMilliseconds` for input and returns the tags of the ready sockets
    /// (empty after the timeout).
    func wait(timeoutMilliseconds: Int32) throws(BenchError) -> [Int] {
        while true {
            let ready = events.withUnsafeMutableBufferPointer {
                epoll_wait(descriptor, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
            }
            if ready >= 0 { return (0..<Int(ready)).map { Int(events[$0].data.u64) } }
            if errno != EINTR {
                throw .process(name: "todo-bench", reason: "epoll_wait: \(String(cString: strerror(errno)))")
            }
        }
    }
}
