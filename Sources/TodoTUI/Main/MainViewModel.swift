/// What the main view itself draws: the status line (the list and the detail pane are child
/// screens in its regions).
public struct MainViewModel: Equatable, Sendable {
    /// The status line.
    public var status: StatusLineModel

    /// A model showing `status`.
    public init(status: StatusLineModel) {
        self.status = status
    }
}
