import Glibc

/// The write end of the pipe the signal handler writes to (set once, before the handler).
nonisolated(unsafe) private var signalPipe: Int32 = -1

extension WebGateway {
    /// Stops the gateway when one of `signals` (SIGINT, SIGTERM) arrives: browsers get a close
    /// frame, the daemon's subscriptions end, and `finished()` returns. The handler only writes
    /// a byte to a pipe (async-signal-safe); a thread of its own reads it and calls `stop()`.
    /// For a program that serves one gateway; call it once.
    public func stop(onSignals signals: [Int32]) throws(WebGatewayError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .cannotStartThread(errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipe = ends[1]
        let readEnd = ends[0]
        _ = try ThreadExit.run(handingOver: self) { gateway in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            gateway.stop()
        }
        for number in signals {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(signalPipe, &byte, 1)
            }
        }
    }
}
