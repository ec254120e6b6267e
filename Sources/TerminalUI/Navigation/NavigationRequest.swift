/// What a screen can be asked to do: show or hide a route by name (Tempura's
/// `NavigationRequest`).
public enum NavigationRequest: Hashable, Sendable {
    /// Show the screen called this.
    case show(String)
    /// Hide the screen called this.
    case hide(String)
}

extension NavigationRequest {
    /// `show` or `hide`.
    var verb: String {
        switch self {
        case .show: return "show"
        case .hide: return "hide"
        }
    }

    /// The route named.
    var route: String {
        switch self {
        case .show(let route), .hide(let route): return route
        }
    }
}
