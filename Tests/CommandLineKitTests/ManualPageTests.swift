import CommandLineKit
import ManualPage
import Testing

/// The tool's manual page, written from its command table.
@Suite struct ToolManualPageTests {
    @Test func thePageHasEveryCommandAndOptionOfTheTable() {
        let roff = SampleTool().tool.manualPage.roff
        #expect(roff.hasPrefix(".TH SAMPLE 1 \"\" \"sample 1.2\" \"User Commands\"\n.ad l\n.nh\n.SH NAME\nsample \\- "))
        for term in ["greet [\\-\\-loud] NAME...", "load FILE", "completions bash|zsh|fish", "\\-\\-place WHERE"] {
            #expect(roff.contains(".TP\n\\fB\(term)\\fR\n"), "\(term)")
        }
        #expect(roff.contains("the place to greet in\n.br\n(default: here)"), "each help line its own line")
    }

    @Test func textIsEscapedForTroff() {
        let page = ManualPage(
            name: "x", section: 8, summary: "a \\ b", synopsis: [".dot"],
            sections: [ManualPage.Section("NOTES", paragraphs: ["wait… 'quoted"])], source: "x 1")
        #expect(page.roff.contains("x \\- a \\e b\n"))
        #expect(page.roff.contains("\n\\&.dot\n"), "a line starting with a dot is not a request")
        #expect(page.roff.contains("wait\\[u2026] 'quoted"))
        #expect(page.roff.contains("\"System Administration\""))
        let long = "{\"archivedCount\":A,\"columns\":[{\"cards\":[{\"hasNotes\":B,\"id\":ID}]}]}"
        let json = ManualPage(
            name: "x", section: 1, summary: "s", synopsis: [],
            sections: [ManualPage.Section("S", paragraphs: ["short, " + long])], source: "x")
        #expect(json.roff.contains("short, {\"archivedCount\":A,\\:\"columns\""), "a long word may break after a comma")
    }
}
