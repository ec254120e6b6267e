import TerminalUI

/// The frame of `todo tui`: the list region on the left, the detail region on the right (on
/// terminals at least 60 columns wide), a separator, and the status line at the bottom.
///
/// ```
/// ┌ list region (55%) ───────┐│┌ detail region ─────┐
/// │                          │││                     │
/// └──────────────────────────┘│└─────────────────────┘
///  connected v12   3 open, 1 done              ? help
/// ```
///
/// Keys it turns into interactions: `a` add, `f` next filter, `u` undo, `h` history, `?` help,
/// `q` quit.
public final class MainView: ModellableView {
    /// The widest terminal that shows no detail pane.
    public static let detailMinimumColumns = 60

    /// The model shown; setting it repaints what changed.
    public var model: MainViewModel? { didSet { if model != oldValue { update(oldModel: oldValue) } } }
    /// The view's cells.
    public var canvas = Canvas(size: .zero)
    /// Where the list screen is shown.
    public let listRegion = ContainerRegion()
    /// Where the detail screen is shown (empty on narrow terminals).
    public let detailRegion = ContainerRegion()

    /// `a`.
    public var didRequestAdd: (() -> Void)?
    /// `f`.
    public var didCycleFilter: (() -> Void)?
    /// `u`.
    public var didRequestUndo: (() -> Void)?
    /// `h`.
    public var didRequestHistory: (() -> Void)?
    /// `?`.
    public var didRequestHelp: (() -> Void)?
    /// `q`.
    public var didRequestQuit: (() -> Void)?

    /// An empty view.
    public init() {}

    /// Places the regions and the separator for `size`, then paints the status line.
    public func layout(size: Size) {
        canvas = Canvas(size: size)
        let paneRows = max(0, size.rows - 1)
        if size.columns >= Self.detailMinimumColumns {
            let listColumns = size.columns * 55 / 100
            listRegion.frame = Rect(row: 0, column: 0, columns: listColumns, rows: paneRows)
            detailRegion.frame = Rect(
                row: 0, column: listColumns + 1, columns: size.columns - listColumns - 1, rows: paneRows)
            for row in 0..<paneRows {
                canvas.put(Cell("│"), row: row, column: listColumns)
            }
        } else {
            listRegion.frame = Rect(row: 0, column: 0, columns: size.columns, rows: paneRows)
            detailRegion.frame = Rect(row: 0, column: size.columns, columns: 0, rows: 0)
        }
        update(oldModel: nil)
    }

    /// Repaints the status line when it changed (the panes belong to the child screens).
    public func update(oldModel: MainViewModel?) {
        guard let model, canvas.size.rows > 0 else { return }
        guard oldModel?.status != model.status else { return }
        StatusLineRenderer.draw(model.status, on: &canvas, row: canvas.size.rows - 1)
    }

    /// Turns the keys listed above into interaction callbacks.
    public func handle(_ key: Key) -> Bool {
        let action: ((() -> Void)?)
        switch key {
        case .character("a"): action = didRequestAdd
        case .character("f"): action = didCycleFilter
        case .character("u"): action = didRequestUndo
        case .character("h"): action = didRequestHistory
        case .character("?"): action = didRequestHelp
        case .character("q"): action = didRequestQuit
        default: return false
        }
        action?()
        return true
    }
}
