import Glibc

/// Reads the terminal on a thread of its own and hands every decoded event to `deliver`.
///
/// The thread waits in `poll` on standard input and on a wake pipe. SIGWINCH writes `w` to
/// the pipe (the only thing a signal handler may safely do here), which becomes a `.resize`
/// with the size read afresh; `stop()` writes `q`, which ends the thread. A lone ESC is
/// flushed as Escape when no byte follows within `escapeDelay` milliseconds.
final class InputReader: @unchecked Sendable {
    // @unchecked: after `start`, the thread alone uses `decoder`; the other fields are
    // constants, and `stop` only writes to the pipe and joins.
    private let input: Int32
    private let wake: (read: Int32, write: Int32)
    private let currentSize: @Sendable () -> Size
    private let deliver: @Sendable (TerminalEvent) -> Void
    private var thread = pthread_t()
    private var decoder = KeyDecoder()

    /// How long a lone ESC waits for the rest of an escape sequence.
    static let escapeDelay: Int32 = 25

    // nonisolated(unsafe): set once before the SIGWINCH handler is installed, then only read.
    nonisolated(unsafe) private static var resizeWakeDescriptor: Int32 = -1

    private init(
        input: Int32, wake: (Int32, Int32), currentSize: @escaping @Sendable () -> Size,
        deliver: @escaping @Sendable (TerminalEvent) -> Void
    ) {
        self.input = input
        self.wake = wake
        self.currentSize = currentSize
        self.deliver = deliver
    }

    /// Starts reading `input`; `currentSize` is asked after each SIGWINCH.
    static func start(
        input: Int32, currentSize: @escaping @Sendable () -> Size, deliver: @escaping @Sendable (TerminalEvent) -> Void
    ) throws(TerminalError) -> InputReader {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw .systemCall("pipe", String(cString: strerror(errno))) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let reader = InputReader(
            input: input, wake: (descriptors[0], descriptors[1]), currentSize: currentSize, deliver: deliver)
        resizeWakeDescriptor = descriptors[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte = UInt8(ascii: "w")
            _ = Glibc.write(InputReader.resizeWakeDescriptor, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &action, nil)

        let context = Unmanaged.passRetained(reader).toOpaque()
        let created = pthread_create(
            &reader.thread, nil,
            { raw in
                let reader = Unmanaged<InputReader>.fromOpaque(raw!).takeRetainedValue()
                reader.run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<InputReader>.fromOpaque(context).release()
            throw .systemCall("pthread_create", String(cString: strerror(created)))
        }
        return reader
    }

    /// Ends the thread and waits for it. SIGWINCH is ignored from then on.
    func stop() {
        signal(SIGWINCH, SIG_IGN)
        var byte = UInt8(ascii: "q")
        _ = Glibc.write(wake.write, &byte, 1)
        pthread_join(thread, nil)
        close(wake.read)
        close(wake.write)
    }

    private func run() {
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let ready = poll(&descriptors, 2, decoder.hasPendingInput ? Self.escapeDelay : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                deliver(.inputClosed)
                return
            }
            if ready == 0 {
                decoder.flush().forEach(deliver)
                continue
            }
            if descriptors[1].revents != 0 {
                let count = read(wake.read, &buffer, buffer.count)
                if count > 0 {
                    if buffer[0..<count].contains(UInt8(ascii: "q")) { return }
                    deliver(.resize(currentSize()))
                }
            }
            if descriptors[0].revents != 0 {
                let count = read(input, &buffer, buffer.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count > 0 else {
                    deliver(.inputClosed)
                    return
                }
                decoder.feed(buffer[0..<count]).forEach(deliver)
            }
        }
    }
}
