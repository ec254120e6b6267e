import SyncIntegrationTesting
import TestSupport
import Testing

/// `todo manual` and `todod --manual`: pages from the same tables as `--help` and the
/// completions, which groff renders without a warning.
@Suite(.blocking) struct ManualPageTests {
    @Test(arguments: [("todo", ["manual"], "TODO(1)"), ("todod", ["--manual"], "TODOD(8)")])
    func eachPageRendersWithoutWarnings(program: String, arguments: [String], heading: String) throws {
        let roff = try BuiltPrograms.run(program, arguments)
        #expect(roff.status == 0 && roff.errors.isEmpty, "\(roff.errors)")
        #expect(roff.output.hasPrefix(".TH \(program.uppercased()) "))
        let page = try ManualPageCheck.render(roff.output)
        #expect(page.status == 0 && page.errors.isEmpty, "groff: \(page.errors)")
        #expect(page.output.hasPrefix(heading), "\(page.output.prefix(200))")
        let help = try BuiltPrograms.run(program, ["--help"]).output
        let options = program == "todo" ? ["--socket", "--no-autostart"] : ["--data-dir", "--clear-done-after"]
        for option in options { #expect(help.contains(option) && page.output.contains(option), "\(option)") }
        if program == "todo" {
            for command in ["add", "list", "watch", "tui", "web", "completions", "manual"] {
                #expect(page.output.contains("       \(command)"), "\(command) in the page")
            }
        }
    }
}
