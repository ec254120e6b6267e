import SyncProtocol
import TodoDomain

extension TodoDaemon {
    /// Adds `count` items (`item 1`, `item 2`, ...) in one pipelined write on a raw connection
    /// and waits for every ack; returns the version of the last.
    @discardableResult
    func addItems(_ count: Int) throws(BenchError) -> UInt64 {
        let socket = try rawConnection()
        let frames = (1...count).map { index in
            FrameEncoder.frame(
                FrameSocket.encode {
                    try DispatchRequest(id: Int64(index), actionName: AddItem.wireName)
                        .encoded(payload: AddItem(text: "item \(index)"))
                })
        }
        try socket.send(framed: Array(frames.joined()))
        var last: UInt64 = 0
        for _ in 0..<count {
            let reply = try socket.nextReply()
            guard case .ack(_, let version) = reply else {
                throw .unexpectedReply(from: socketPath, reply: FrameSocket.describe(reply))
            }
            last = max(last, version)
        }
        return last
    }

    /// Waits (polling `hello`) until the daemon's state reaches `version`: a daemon on a shared
    /// log catching up with what another appended.
    func waitForVersion(_ version: UInt64, timeout: Double = 60) throws(BenchError) {
        let socketPath = socketPath
        try MonotonicClock.poll("todod at \(socketPath) to reach version \(version)", timeout: timeout, interval: 0.005)
        { () throws(BenchError) -> Bool? in
            try FrameSocket(path: socketPath).greet() >= version ? true : nil
        }
    }
}
