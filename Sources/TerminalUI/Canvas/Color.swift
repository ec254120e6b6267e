/// The eight basic terminal colours (SGR 30–37), the ones every terminal has.
public enum Color: UInt8, Hashable, Sendable, CaseIterable {
    /// In SGR order: black is 30, white 37.
    case black, red, green, yellow, blue, magenta, cyan, white
}
