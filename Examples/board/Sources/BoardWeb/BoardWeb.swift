import BoardDomain
import SyncWeb

/// The board's web front: what its page may do and the page itself, for `board web`.
public enum BoardWeb {
    /// The page may follow the board and the undo target, and add, move, edit and archive
    /// cards and undo, as `board tui` does; nothing else (no column changes, no sweep).
    public static let allowlist = WebAllowlist(
        actions: [
            .of(AddCard.self), .of(MoveCard.self), .of(EditCard.self), .of(ArchiveCard.self),
            .of(UndoBoardChange.self),
        ],
        viewModels: [.of(BoardViewModel.self), .of(BoardUndoViewModel.self)])

    /// The page's files, embedded in the binary (with SyncWeb's gateway.js and patch.js).
    public static let page = WebPage(files: [
        "/index.html": .init(named: "index.html", bytes: PackageResources.index_html),
        "/style.css": .init(named: "style.css", bytes: PackageResources.style_css),
        "/board.js": .init(named: "board.js", bytes: PackageResources.board_js),
    ])
}
