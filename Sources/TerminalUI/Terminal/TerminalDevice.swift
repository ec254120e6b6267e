/// Where frames go: the real terminal (`SystemTerminal`) or a fake one in tests.
@MainActor
public protocol TerminalDevice: AnyObject {
    /// The current size of the window.
    var size: Size { get }
    /// Sends bytes to the terminal.
    func write(_ bytes: [UInt8])
}
