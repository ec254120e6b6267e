import SyncIntegrationTesting
import Testing

/// `board manual` and `boardd --manual`: pages from the same tables as `--help`, which groff
/// renders without a warning.
@Suite(.blocking) struct ManualPageTests {
    @Test(arguments: [("board", ["manual"], "BOARD(1)"), ("boardd", ["--manual"], "BOARDD(8)")])
    func eachPageRendersWithoutWarnings(program: String, arguments: [String], heading: String) throws {
        let roff = try Programs.run(program, arguments)
        #expect(roff.status == 0 && roff.errors.isEmpty, "\(roff.errors)")
        let page = try ManualPageCheck.render(roff.output)
        #expect(page.status == 0 && page.errors.isEmpty, "groff: \(page.errors)")
        #expect(page.output.hasPrefix(heading), "\(page.output.prefix(200))")
        let help = try Programs.run(program, ["--help"]).output
        for option in ["--socket", program == "board" ? "--no-autostart" : "--sweep-after"] {
            #expect(help.contains(option) && page.output.contains(option), "\(option) in both")
        }
        if program == "board" {
            for command in ["show", "add", "move", "sweep", "tui", "completions", "manual"] {
                #expect(page.output.contains("       \(command)"), "\(command) in the page")
            }
        }
    }
}
