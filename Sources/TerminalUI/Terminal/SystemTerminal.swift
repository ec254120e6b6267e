import Glibc

/// The real terminal on standard input and output: raw mode, the alternate screen, its size,
/// and a stream of its events.
///
/// `open()` saves the terminal's attributes and installs the restoring signal handlers
/// (`TerminalRestorer`) before changing anything; `restore()` undoes everything and is also
/// what SIGINT, SIGTERM, SIGHUP and crash signals run. Raw mode here: no echo, no line
/// editing, no signals from keys (Ctrl-C arrives as a key), no CR/NL translation on input,
/// 8-bit bytes; output processing stays on.
@MainActor
public final class SystemTerminal: TerminalDevice {
    private let input: Int32
    private let output: Int32
    private var reader: InputReader?

    private init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Takes over the terminal on `input` and `output`: raw mode, alternate screen, hidden
    /// cursor. Throws if either is not a terminal.
    public static func open(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) -> SystemTerminal {
        try requireTerminal(input: input, output: output)
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { throw .systemCall("tcgetattr", String(cString: strerror(errno))) }
        TerminalRestorer.prepare(original: original, input: input, output: output)
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw .systemCall("tcsetattr", String(cString: strerror(errno)))
        }
        let terminal = SystemTerminal(input: input, output: output)
        terminal.write(Array(ControlSequence.setUp.utf8))
        return terminal
    }

    /// Throws unless `input` and `output` are both terminals.
    public nonisolated static func requireTerminal(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) {
        guard isatty(input) == 1 else { throw .notATerminal(descriptor: input) }
        guard isatty(output) == 1 else { throw .notATerminal(descriptor: output) }
    }

    /// The window's size (80×24 if the terminal does not say).
    public var size: Size { Self.size(of: output) }

    /// Writes all of `bytes`, retrying after interruptions.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll(output, $0) }
    }

    /// Keys, resizes and focus changes, read on a thread of their own from now on.
    public func events() throws(TerminalError) -> AsyncStream<TerminalEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
        let output = output
        reader = try InputReader.start(
            input: input,
            currentSize: { SystemTerminal.size(of: output) },
            deliver: { event in
                continuation.yield(event)
                if event == .inputClosed { continuation.finish() }
            })
        return stream
    }

    /// Stops reading and puts the terminal back as `open` found it.
    public func restore() {
        reader?.stop()
        reader = nil
        TerminalRestorer.restore()
    }

    private nonisolated static func size(of descriptor: Int32) -> Size {
        var window = winsize()
        let result = withUnsafeMutablePointer(to: &window) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        guard result == 0, window.ws_col > 0, window.ws_row > 0 else { return Size(columns: 80, rows: 24) }
        return Size(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }
}
