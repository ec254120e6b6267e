import TerminalUI
import Testing

/// `BaseView` calls `update(oldModel:)` once per change of model, and repaints all on layout.
@MainActor
@Suite struct BaseViewTests {
    /// Records every update it is asked for, and paints the model on row 0.
    final class EchoView: BaseView<String> {
        var updates: [String?] = []

        override func update(oldModel: String?) {
            updates.append(oldModel)
            guard let model else { return }
            canvas.writeLine(model, row: 0)
        }
    }

    @Test func aChangedModelIsUpdatedFromTheOldOne() {
        let view = EchoView()
        view.layout(size: Size(columns: 8, rows: 1))
        view.model = "one"
        view.model = "one"
        view.model = "two"
        #expect(
            view.updates == [nil, nil, "one"],
            "layout, the first model, then the change; the same model again is no update")
        #expect(view.canvas.size == Size(columns: 8, rows: 1))
    }

    @Test func layoutGivesANewCanvasAndRepaintsAll() {
        let view = EchoView()
        view.model = "hi"
        view.layout(size: Size(columns: 4, rows: 2))
        #expect(view.updates == [nil, nil])
        #expect(view.canvas.size == Size(columns: 4, rows: 2))
        #expect(view.cursor == nil)
        #expect(view.preferredSize(in: Size(columns: 9, rows: 9)) == Size(columns: 9, rows: 9))
        #expect(!view.handle(.character("x")))
    }
}
