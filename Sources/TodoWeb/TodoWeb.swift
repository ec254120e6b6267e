import SyncWeb
import TodoDomain

/// The todo app's web front: what its page may do and the page itself, for `todo web`.
public enum TodoWeb {
    /// The page may follow the list and the undo target, and make the changes a person makes
    /// in `todo tui`; nothing else (no import, no export, no side effects).
    public static let allowlist = WebAllowlist(
        actions: [
            .of(AddItem.self), .of(CompleteItem.self), .of(ReopenItem.self), .of(EditItem.self), .of(RemoveItem.self),
            .of(UndoLast.self),
        ],
        viewModels: [.of(ListViewModel.self), .of(UndoViewModel.self)])

    /// The page's files, embedded in the binary (with SyncWeb's gateway.js and patch.js).
    public static let page = WebPage(files: [
        "/index.html": .init(named: "index.html", bytes: PackageResources.index_html),
        "/style.css": .init(named: "style.css", bytes: PackageResources.style_css),
        "/app.js": .init(named: "app.js", bytes: PackageResources.app_js),
        "/items.js": .init(named: "items.js", bytes: PackageResources.items_js),
    ])
}
