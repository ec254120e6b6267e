/// What a screen can be asked to do: show or hide a route by name (Tempura's
/// `NavigationRequest`).
public enum NavigationRequest: Hashable, Sendable {
    /// Show the screen called this.
    case show(String)
    /// Hide the screen called this.
    case hide(String)
}

/// How a request is carried out (Tempura's `NavigationInstruction`).
public enum NavigationInstruction {
    /// Pushes a new full-screen screen: the screens below disappear until it is popped.
    case push(@MainActor (_ context: (any Sendable)?) -> ScreenNode)
    /// Presents a screen over the current ones, centred at its view's preferred size; the
    /// screens below stay visible (and connected).
    case presentModally(@MainActor (_ context: (any Sendable)?) -> ScreenNode)
    /// Pops the pushed screen of that name, and everything above it.
    case pop
    /// Dismisses the modal screen of that name, and everything above it.
    case dismissModally
}

/// A screen that declares the routes it can show and hide (Tempura's
/// `RoutableWithConfiguration`). For `show` the navigator asks the visible screens, top
/// first; for `hide`, the screen to hide and the screens below it.
@MainActor
public protocol RoutableWithConfiguration: ScreenNode {
    /// The requests this screen answers, and how.
    var navigationConfiguration: [NavigationRequest: NavigationInstruction] { get }
}

/// Why a navigation request was not carried out.
public enum NavigationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No screen that may answer declares this request; `visible` lists the routes on screen.
    case unknownRoute(NavigationRequest, visible: [String])
    /// The route is already shown.
    case alreadyShown(String)
    /// The route to hide is not shown (or is the root, which cannot be hidden).
    case notShown(String)
    /// The declared instruction does not fit the request (`pop` to show, `push` to hide, pop
    /// of a modal screen, dismissal of a pushed one).
    case instructionMismatch(NavigationRequest)
    /// The screen asking is in no navigator.
    case notNavigating(String)

    /// One line for users and test failures.
    public var description: String {
        switch self {
        case .unknownRoute(let request, let visible):
            return "no screen declares how to \(request.verb) \"\(request.route)\" (visible: \(visible.joined(separator: ", ")))"
        case .alreadyShown(let route): return "\"\(route)\" is already shown"
        case .notShown(let route): return "\"\(route)\" is not shown, so it cannot be hidden"
        case .instructionMismatch(let request): return "the instruction declared to \(request.verb) \"\(request.route)\" does not fit it"
        case .notNavigating(let route): return "cannot navigate to \"\(route)\" from a screen no navigator shows"
        }
    }
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
