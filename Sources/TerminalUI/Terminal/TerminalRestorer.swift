import Glibc

/// The one way back from raw mode and the alternate screen, usable from a signal handler.
///
/// Everything a signal handler needs is prepared before the handlers go in, in memory that
/// never moves: the saved terminal attributes, the bytes of `ControlSequence.restore`, and
/// the descriptors of standard error. `restore()` then only calls `write`, `read`, `dup2` and
/// `tcsetattr`, all async-signal-safe, and does its work once, whichever path comes first.
///
/// ```
///  normal exit ───────────────┐
///  SIGINT/SIGTERM/SIGHUP ─────┼──▶ restore() ──▶ return / _exit(128 + signal)
///  SIGSEGV/SIGILL/SIGTRAP/... ┘                  / the previous handler (Swift's backtrace)
/// ```
///
/// While the program owns the screen, standard error (when it is a terminal) goes into a pipe
/// instead, so that no stray message scribbles over the frame; `restore()` puts standard
/// error back and replays what was written meanwhile, such as the message of a fatal error
/// just before its crash signal.
enum TerminalRestorer {
    /// The state the handlers read. Written only before the handlers are installed.
    private struct Saved {
        var attributes: UnsafeMutablePointer<termios>
        var bytes: UnsafeMutablePointer<UInt8>
        var count: Int
        var input: Int32
        var output: Int32
        /// The real standard error while it is diverted, else -1.
        var standardError: Int32
        /// The read end of the pipe standard error is diverted into, else -1.
        var divertedErrors: Int32
        var buffer: UnsafeMutablePointer<UInt8>
    }

    // nonisolated(unsafe): written once by `prepare` before any handler can run; afterwards
    // only read (by handlers and `restore`); `done` is an atomic-enough flag for a signal race
    // that at worst restores twice, which is harmless.
    nonisolated(unsafe) private static var saved: Saved?
    nonisolated(unsafe) private static var done: sig_atomic_t = 0
    nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>.allocate(
        capacity: Int(NSIG))
    private static let bufferSize = 4096

    /// Signals that end the program: restore, then exit with 128 + the signal.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Signals of a crash: restore, then, for a fault or the program's own `abort`, let the
    /// handler that was there before (the Swift runtime's backtracer, or the default action)
    /// deal with it. The same signal sent by another process (`kill -SEGV`) ends the program
    /// by its default action: a handler expecting a fault would return, and the program would
    /// carry on.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Records how to restore the terminal (its attributes before raw mode), diverts standard
    /// error if it is a terminal, and installs the handlers. Call once per process, before
    /// changing the terminal.
    static func prepare(original: termios, input: Int32, output: Int32) {
        let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        attributes.initialize(to: original)
        let text = Array(ControlSequence.restore.utf8)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
        bytes.initialize(from: text, count: text.count)
        let (standardError, divertedErrors) = divertStandardError()
        saved = Saved(
            attributes: attributes, bytes: bytes, count: text.count, input: input, output: output,
            standardError: standardError, divertedErrors: divertedErrors, buffer: .allocate(capacity: bufferSize))
        done = 0
        for signal in endingSignals {
            install(signal) { signal, _, _ in
                TerminalRestorer.restore()
                _exit(128 + signal)
            }
        }
        for signal in crashSignals {
            install(signal) { signal, information, _ in
                TerminalRestorer.restore()
                if let information, information.pointee.si_code <= 0,
                    information.pointee._sifields._kill.si_pid != getpid()
                {
                    // Sent by another process, not a fault of this one.
                    Glibc.signal(signal, SIG_DFL)
                } else {
                    // Pending on return, the signal goes to the previous handler (and a
                    // faulting instruction runs again, and faults again).
                    sigaction(signal, TerminalRestorer.previousActions + Int(signal), nil)
                }
                raise(signal)
            }
        }
    }

    /// Puts the terminal back as `prepare` found it (attributes, normal screen, cursor,
    /// autowrap, no focus reports) and standard error with it, replaying what it received
    /// meanwhile. Only the first call does anything.
    static func restore() {
        guard let saved, done == 0 else { return }
        done = 1
        writeAll(saved.output, UnsafeRawBufferPointer(start: saved.bytes, count: saved.count))
        _ = tcsetattr(saved.input, TCSANOW, saved.attributes)
        guard saved.standardError >= 0 else { return }
        _ = dup2(saved.standardError, 2)
        while true {
            let count = read(saved.divertedErrors, saved.buffer, bufferSize)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            writeAll(2, UnsafeRawBufferPointer(start: saved.buffer, count: count))
        }
    }

    /// Points descriptor 2 at a non-blocking pipe (a full pipe drops messages rather than
    /// block the program); returns the real standard error and the pipe's read end, or -1s
    /// when standard error is not a terminal and stays as it is.
    private static func divertStandardError() -> (Int32, Int32) {
        guard isatty(2) == 1 else { return (-1, -1) }
        var ends: [Int32] = [0, 0]
        let copy = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0, pipe(&ends) == 0 else {
            if copy >= 0 { close(copy) }
            return (-1, -1)
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        _ = dup2(ends[1], 2)
        close(ends[1])
        return (copy, ends[0])
    }

    private static func install(
        _ signal: Int32,
        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void
    ) {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_SIGINFO
        sigaction(signal, &action, previousActions + Int(signal))
    }
}
