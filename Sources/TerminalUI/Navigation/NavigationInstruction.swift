/// How a request is carried out (Tempura's `NavigationInstruction`).
public enum NavigationInstruction {
    /// Pushes a new full-screen screen: the screens below disappear until it is popped. The
    /// builder gets the context passed to `show`, and may return nil when it is not what the
    /// screen needs (the request then fails with `NavigationError.noScreen`).
    case push(@MainActor (_ context: (any Sendable)?) -> ScreenNode?)
    /// Presents a screen over the current ones, centred at its view's preferred size; the
    /// screens below stay visible (and connected). The builder is as for `push`.
    case presentModally(@MainActor (_ context: (any Sendable)?) -> ScreenNode?)
    /// Pops the pushed screen of that name, and everything above it.
    case pop
    /// Dismisses the modal screen of that name, and everything above it.
    case dismissModally
}
