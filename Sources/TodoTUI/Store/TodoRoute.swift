/// The routes of `todo tui`, by name.
enum TodoRoute {
    /// The modal form adding an item.
    static let addItem = "add item"
    /// The modal form editing the selected item (context: the `ListViewModel.Row`).
    static let editItem = "edit item"
    /// The modal question before deleting (context: the `ListViewModel.Row`).
    static let deleteItem = "delete item"
    /// The help overlay.
    static let help = "help"
    /// The read-only history mode (context: nothing; the screen takes the newest version).
    static let history = "history"
}
