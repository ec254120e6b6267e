import Foundation
import TerminalUI
import TerminalUITesting
import Testing

@MainActor @Suite struct SnapshotHelperTests {
    private let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "snapshots-\(UUID().uuidString)"
    }

    private func cleanUp() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private let small = [Size(columns: 6, rows: 2)]

    @Test func aMissingSnapshotFailsUnlessRecording() throws {
        defer { cleanUp() }
        let view = LabelView()
        do {
            try Snapshots(directory: directory, recording: false).verify("label", of: view, model: "hi", sizes: small)
            Issue.record("a missing snapshot passed")
        } catch let failure as SnapshotFailure {
            let text = failure.description
            #expect(text.contains("no snapshot \(directory)/label.6x2.txt (run with RECORD_SNAPSHOTS=1 to record it)"))
            #expect(text.contains("|hi    |"), "the failure shows what would be recorded: \(text)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: "\(directory)/label.6x2.txt"),
            "nothing recorded without the variable")
    }

    @Test func recordingWritesFilesThatTheNextRunMatches() throws {
        defer { cleanUp() }
        try Snapshots(directory: directory, recording: true).verify(
            "recorded", of: LabelView(), model: "hi", sizes: small + [Size(columns: 3, rows: 1)])
        #expect(
            try String(contentsOfFile: "\(directory)/recorded.6x2.txt", encoding: .utf8) == "6x2\n|hi    |\n|      |\n")
        #expect(try String(contentsOfFile: "\(directory)/recorded.3x1.txt", encoding: .utf8) == "3x1\n|hi |\n")
        try copyOf("recorded", in: directory)
        try Snapshots(directory: directory, recording: false).verify(
            "recorded-check", of: LabelView(), model: "hi", sizes: small)
    }

    @Test func aChangedRenderingFailsWithALineDiff() throws {
        defer { cleanUp() }
        try Snapshots(directory: directory, recording: true).verify(
            "changing", of: LabelView(), model: "old", sizes: small)
        try copyOf("changing", in: directory)
        do {
            try Snapshots(directory: directory, recording: false).verify("changing-check", sizes: small) { _ in
                var canvas = Canvas(size: small[0])
                canvas.write("new", row: 0, column: 0, style: Style(reverse: true))
                return canvas
            }
            Issue.record("a changed rendering passed")
        } catch let failure as SnapshotFailure {
            let text = failure.description
            #expect(text.contains("changing-check.6x2.txt differs"))
            #expect(text.contains("- |old   |\n+ |new   |"), "\(text)")
            #expect(text.contains("+ styles:\n+ 0: 0-2 reverse"), "\(text)")
        }
    }

    @Test func aNameUsedTwiceIsRejected() throws {
        defer { cleanUp() }
        let snapshots = Snapshots(directory: directory, recording: true)
        try snapshots.verify("twice", of: LabelView(), model: "a", sizes: small)
        #expect(throws: SnapshotFailure.duplicateName("twice")) {
            try snapshots.verify("twice", of: LabelView(), model: "b", sizes: small)
        }
        #expect(
            try String(contentsOfFile: "\(directory)/twice.6x2.txt", encoding: .utf8).contains("|a "),
            "the first recording stands")
    }

    @Test func namesMustBeFileNamesAndSizesMustBeGiven() {
        let snapshots = Snapshots(directory: directory, recording: true)
        for name in ["", "a/b", ".hidden", "sp ace"] {
            #expect(throws: SnapshotFailure.invalidName(name)) {
                try snapshots.verify(name, of: LabelView(), model: "a")
            }
        }
        #expect(throws: SnapshotFailure.noSizes("sizeless")) {
            try snapshots.verify("sizeless", of: LabelView(), model: "a", sizes: [])
        }
    }

    @Test func wideCharactersAreWrittenOnceAndStylesListedByRun() {
        var canvas = Canvas(size: Size(columns: 6, rows: 1))
        canvas.write("漢a", row: 0, column: 0, style: Style(bold: true))
        canvas.write("b", row: 0, column: 4, style: Style(reverse: true, foreground: .green))
        #expect(SnapshotText.render(canvas) == "6x1\n|漢a b |\nstyles:\n0: 0-2 bold\n0: 4-4 reverse+green\n")
    }
}

/// Copies snapshot `name`'s files to `name-check`: a name is checked once per run, so a
/// second check of the same files goes by another name.
private func copyOf(_ name: String, in directory: String) throws {
    for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasPrefix(name + ".") {
        let target = "\(directory)/\(name)-check" + file.dropFirst(name.count)
        if !FileManager.default.fileExists(atPath: target) {
            try FileManager.default.copyItem(atPath: "\(directory)/\(file)", toPath: target)
        }
    }
}
