import Glibc

/// The one way back from raw mode and the alternate screen, usable from a signal handler.
///
/// Everything a signal handler needs is prepared before the handlers go in, in memory that
/// never moves: the saved terminal attributes and the bytes of `ControlSequence.restore`.
/// `restore()` then only calls `write` and `tcsetattr`, both async-signal-safe, and does
/// its work once, whichever path (normal exit, SIGINT, SIGTERM, SIGHUP, a crash signal) comes
/// first.
///
/// ```
///  normal exit ───────────────┐
///  SIGINT/SIGTERM/SIGHUP ─────┼──▶ restore() ──▶ exit 0 / _exit(128 + signal)
///  SIGSEGV/SIGILL/SIGTRAP/... ┘                  or the previous handler (backtrace)
/// ```
enum TerminalRestorer {
    /// The state the handlers read. Written only before the handlers are installed.
    private struct Saved {
        var attributes: UnsafeMutablePointer<termios>
        var bytes: UnsafeMutablePointer<UInt8>
        var count: Int
        var input: Int32
        var output: Int32
    }

    // nonisolated(unsafe): written once by `prepare` before any handler can run; afterwards
    // only read (by handlers and `restore`); `done` is an atomic-enough flag for a signal race
    // that at worst restores twice, which is harmless.
    nonisolated(unsafe) private static var saved: Saved?
    nonisolated(unsafe) private static var done: sig_atomic_t = 0
    nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))

    /// Signals that end the program: restore, then exit with 128 + the signal.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Signals of a crash: restore, then let the handler that was there before (the Swift
    /// runtime's backtracer, or the default action) deal with it.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Records how to restore the terminal (its attributes before raw mode) and installs the
    /// handlers. Call once, before changing the terminal.
    static func prepare(original: termios, input: Int32, output: Int32) {
        let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        attributes.initialize(to: original)
        let text = Array(ControlSequence.restore.utf8)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
        bytes.initialize(from: text, count: text.count)
        saved = Saved(attributes: attributes, bytes: bytes, count: text.count, input: input, output: output)
        done = 0
        for signal in endingSignals {
            install(signal) { signal in
                TerminalRestorer.restore()
                _exit(128 + signal)
            }
        }
        for signal in crashSignals {
            install(signal) { signal in
                TerminalRestorer.restore()
                // Hand the signal to whoever handled it before: pending on return, it is
                // delivered there (and a fault re-executes and faults again).
                sigaction(signal, TerminalRestorer.previousActions + Int(signal), nil)
                raise(signal)
            }
        }
    }

    /// Puts the terminal back as `prepare` found it: attributes, normal screen, cursor,
    /// autowrap, no focus reports. Only the first call does anything.
    static func restore() {
        guard let saved, done == 0 else { return }
        done = 1
        var offset = 0
        while offset < saved.count {
            let written = Glibc.write(saved.output, saved.bytes + offset, saved.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        _ = tcsetattr(saved.input, TCSANOW, saved.attributes)
    }

    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, previousActions + Int(signal))
    }
}
