import Glibc

/// A real `todod` started by the bench on a socket and data directory of its own, inside the
/// run's temporary directory.
///
/// `start` returns once the daemon answers a `hello` on its socket, and says how long that took
/// from just before the exec. `stop` sends SIGTERM (the daemon finishes its commits and saves a
/// snapshot). `deinit` kills a daemon still running.
final class TodoDaemon {
    /// The daemon's socket.
    let socketPath: String
    /// The daemon's data directory (the journal).
    let dataDirectory: String
    /// The daemon's process.
    let process: Subprocess
    /// Seconds from just before the exec to the `welcome` of the first `hello`.
    let secondsToReady: Double

    /// Starts `todod` from `context` in `directory` (created if missing) and waits until it
    /// answers. An existing `directory/data` is used as it is: figures prepare journals there.
    /// `launcher` goes before the whole command line (`ip netns exec NS` puts the daemon on a
    /// simulated host), and must exec the daemon, so that its process is the daemon's.
    init(_ context: BenchContext, directory: String, extraArguments: [String] = [], launcher: [String] = [])
        throws(BenchError)
    {
        try BenchContext.makeDirectory(directory)
        socketPath = directory + "/todod.sock"
        dataDirectory = directory + "/data"
        unlink(socketPath)
        let todod = context.binary("todod")
        var command =
            launcher + context.options.daemonPrefix + [todod, "--socket", socketPath, "--data-dir", dataDirectory]
            + extraArguments
        if !command[0].contains("/") {
            guard let found = Subprocess.findInPath(command[0]) else {
                throw .missingProgram(name: command[0], looked: "$PATH")
            }
            command[0] = found
        }
        let started = MonotonicClock.now()
        let process = try Subprocess(command[0], Array(command.dropFirst()), outputDirectory: directory)
        self.process = process
        let socketPath = socketPath
        try MonotonicClock.poll(
            "todod to answer on \(socketPath)", timeout: context.options.readyTimeout, interval: 0.0005
        ) { () throws(BenchError) -> Bool? in
            guard process.isRunning else {
                throw BenchError.process(
                    name: "todod", reason: "exited at start: \(process.standardError.suffix(2000))")
            }
            guard let socket = try? FrameSocket(path: socketPath) else { return nil }
            return (try? socket.greet()) != nil ? true : nil
        }
        secondsToReady = MonotonicClock.seconds(from: started, to: MonotonicClock.now())
    }

    /// Stops the daemon with SIGTERM and checks that it exited cleanly.
    func stop() throws(BenchError) {
        process.send(SIGTERM)
        let code = try process.wait(timeout: 120)
        guard code == 0 else {
            throw .process(
                name: "todod", reason: "exited with \(code) on SIGTERM: \(process.standardError.suffix(2000))")
        }
    }

    /// A SyncClient-free greeted raw connection, asking for `features`.
    func rawConnection(features: [String] = []) throws(BenchError) -> FrameSocket {
        let socket = try FrameSocket(path: socketPath)
        try socket.greet(features: features)
        return socket
    }

    deinit {
        process.send(SIGKILL)
        process.wait()
    }
}
