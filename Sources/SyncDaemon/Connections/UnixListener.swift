import CUV
import Glibc

/// The listening Unix socket: bound here, or passed by systemd (socket activation). Its
/// `uv_pipe_t` is a `LoopHandle` whose target is the listener, which it keeps alive until the
/// close callback. Loop-confined: not `Sendable`.
final class UnixListener: LoopHandleTarget {
    /// Where the socket is.
    enum Source {
        /// Bind this path (mode 0600); the file is removed at close.
        case path(String)
        /// Listen on this already bound socket (from systemd, which owns the file).
        case descriptor(Int32)
    }

    /// What to call the socket in logs.
    let path: String

    private let pipe: LoopHandle<uv_pipe_t>
    private let onConnection: (UnsafeMutablePointer<uv_stream_t>) -> Void
    private let logger: Logger
    private var boundInode: ino_t = 0

    /// Listens on `source`. `onConnection` is called with the server stream each time a
    /// client is waiting to be accepted.
    init(
        loop: UnsafeMutablePointer<uv_loop_t>, source: Source, logger: Logger,
        onConnection: @escaping (UnsafeMutablePointer<uv_stream_t>) -> Void
    ) throws(DaemonError) {
        switch source {
        case .path(let path): self.path = path
        case .descriptor(let descriptor): path = "the socket passed by systemd (fd \(descriptor))"
        }
        self.logger = logger
        self.onConnection = onConnection
        pipe = try .pipe(loop: loop, "listening socket")
        pipe.attach(self)
        do {
            switch source {
            case .path(let path):
                try bind(path)
            case .descriptor(let descriptor):
                try DaemonError.check(uv_pipe_open(pipe.handle, descriptor), "opening", path)
            }
            try DaemonError.check(uv_listen(pipe.stream, 128, Self.onListen), "listening on", path)
        } catch {
            close()
            throw error
        }
    }

    /// Stops accepting and removes the socket file if it is still the one this listener bound.
    func close() {
        guard !pipe.isClosed else { return }
        var status = stat()
        if boundInode != 0, lstat(path, &status) == 0, status.st_ino == boundInode {
            unlink(path)
        }
        pipe.close()
    }

    /// Closes as `close()` does (the loop ended with the listener open).
    func closeLeftoverHandle() { close() }

    private func bind(_ path: String) throws(DaemonError) {
        let descriptor = try SocketFile.bind(path)
        var status = stat()
        if lstat(path, &status) == 0 { boundInode = status.st_ino }
        let opened = uv_pipe_open(pipe.handle, descriptor)
        if opened < 0 { Glibc.close(descriptor) }
        try DaemonError.check(opened, "opening", path)
    }

    private static let onListen: uv_connection_cb = { server, status in
        let listener = LoopHandle<uv_pipe_t>.target(of: server!.pointee.data, as: UnixListener.self)
        guard !listener.pipe.isClosed else { return }
        guard status == 0 else {
            // Typically EMFILE: the client waits in the backlog; say so, it is worth knowing.
            listener.logger.log(
                .warning, "accepting a client on \(listener.path) failed: \(String(cString: uv_err_name(status)))")
            return
        }
        listener.onConnection(server!)
    }
}
