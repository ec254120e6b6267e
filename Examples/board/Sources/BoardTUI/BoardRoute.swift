/// The routes of the board screen, by name.
enum BoardRoute {
    /// The modal form adding a card (context: the column's name, a `String`).
    static let addCard = "add card"
    /// The help overlay.
    static let help = "help"
}
