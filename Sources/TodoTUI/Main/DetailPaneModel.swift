import TodoDomain

/// What the detail pane shows about the selected item.
public enum DetailPaneModel: Equatable, Sendable {
    /// Nothing is selected (the list is empty).
    case nothingSelected
    /// Item `number` is selected and its model has not arrived yet.
    case loading(number: Int)
    /// The selected item, with all its fields.
    case item(TodoItem)
    /// Item `number` is selected but no longer exists (removed meanwhile).
    case missing(number: Int)
}
