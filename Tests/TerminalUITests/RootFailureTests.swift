import TerminalUI
import TerminalUITesting
import Testing

/// A failure no screen shows its own way reaches the root, and the navigator shows it on the
/// bottom row until the next key: a refused action is never dropped silently.
@MainActor @Suite struct RootFailureTests {
    @Test func aRefusedDispatchOfTheRootScreenIsShownUntilTheNextKey() async throws {
        let store = RecordingStore()
        let screen = Screen(view: LabelView(), store: store)
        let navigator = Navigator(root: screen)
        navigator.start(size: Size(columns: 40, rows: 3))
        screen.dispatch("refuse")
        try await waitUntil("the refusal was shown", timeout: 120) { navigator.failure != nil }
        let bottom = String(navigator.compose().frame.withoutStyles().row(2).map(\.character))
        #expect(bottom.hasPrefix("! Refused"), "\(bottom)")
        _ = navigator.handle(.character("x"))
        #expect(navigator.failure == nil)
        #expect(!String(navigator.compose().frame.row(2).map(\.character)).contains("Refused"))
        navigator.stop()
    }
}
