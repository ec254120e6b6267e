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
    /// The route's builder made no screen from the context it was given.
    case noScreen(String)

    /// One line for users and test failures.
    public var description: String {
        switch self {
        case .unknownRoute(let request, let visible):
            return
                "no screen declares how to \(request.verb) \"\(request.route)\" (visible: \(visible.joined(separator: ", ")))"
        case .alreadyShown(let route): return "\"\(route)\" is already shown"
        case .notShown(let route): return "\"\(route)\" is not shown, so it cannot be hidden"
        case .instructionMismatch(let request):
            return "the instruction declared to \(request.verb) \"\(request.route)\" does not fit it"
        case .notNavigating(let route): return "cannot navigate to \"\(route)\" from a screen no navigator shows"
        case .noScreen(let route): return "\"\(route)\" cannot be shown with the context it was given"
        }
    }
}
