import SyncIntegrationTesting
import Testing

/// `board sweep DAYS`: the sweep side effect run by the real boardd on its own clock.
@Suite(.blocking) struct SweepCommandTests {
    @Test func sweepArchivesTheDoneCardsAndAnswersHowMany() throws {
        let daemon = try RunningDaemon.board()
        #expect(try daemon.board("add", "--column", "done", "shipped").status == 0)
        #expect(try daemon.board("add", "--column", "done", "released").status == 0)
        #expect(try daemon.board("add", "still to do").status == 0)

        let notYet = try daemon.board("sweep", "7")
        #expect(notYet.status == 0 && notYet.output == "archived 0 cards\n", "\(notYet.errors)")
        let swept = try daemon.board("sweep", "0")
        #expect(swept.status == 0 && swept.output == "archived 2 cards\n", "\(swept.errors)")
        let shown = try daemon.board("show").output
        #expect(shown.hasSuffix("done (0)\n2 archived\n") && shown.contains("  still to do\n"), "\(shown)")
        let again = try daemon.board("sweep", "0", "--json")
        #expect(again.status == 0 && again.output == "{\"archived\":0}\n")

        let negative = try daemon.board("sweep", "-3")
        #expect(
            negative.status == 1 && negative.errors == "board: a sweep takes 0 to 36500 days (got -3)\n",
            "\(negative.errors)")
        let word = try daemon.board("sweep", "week")
        #expect(word.status == 2 && word.errors.hasPrefix("board: sweep needs DAYS, a number of days\n"))
        #expect(try daemon.board("show").output == shown, "refused sweeps changed nothing")
    }
}
