/// A screen that declares the routes it can show and hide (Tempura's
/// `RoutableWithConfiguration`). For `show` the navigator asks the visible screens, top
/// first; for `hide`, the screen to hide and the screens below it.
@MainActor
public protocol RoutableWithConfiguration: ScreenNode {
    /// The requests this screen answers, and how.
    var navigationConfiguration: [NavigationRequest: NavigationInstruction] { get }
}
