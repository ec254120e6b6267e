import Foundation
import SyncLock
import TerminalUI

/// Text snapshot tests of terminal views (TempuraTesting's `ViewTestCase`, comparing for
/// real): render a view with a model at several terminal sizes and compare each rendering
/// with the file `NAME.COLUMNSxROWS.txt` kept in the repository.
///
/// ```swift
/// let snapshots = Snapshots(besides: #filePath)      // Tests/X/__Snapshots__/
/// try snapshots.verify("counter-zero", of: CounterView(), model: CounterModel(count: 0))
/// ```
///
/// A difference fails with a line diff. A missing file fails too, unless the environment
/// variable `RECORD_SNAPSHOTS=1` is set: then renderings are written (and the check passes),
/// so CI never records by accident. A name used twice in one run fails: the second check
/// would otherwise record over the first.
///
/// Failures are thrown (`SnapshotFailure`), so the helper works in Swift Testing and XCTest.
@MainActor
public struct Snapshots {
    /// The variable that turns recording on.
    nonisolated public static let recordVariable = "RECORD_SNAPSHOTS"
    /// 80×24, 40×12 and 132×43: the classic terminal, a narrow one, a large one.
    nonisolated public static let standardSizes = [
        Size(columns: 80, rows: 24), Size(columns: 40, rows: 12), Size(columns: 132, rows: 43),
    ]

    /// Where the snapshot files are.
    public let directory: String
    /// Whether renderings are written instead of compared.
    public let isRecording: Bool

    /// Names used so far in this process, by directory: each name is checked once.
    nonisolated private static let usedNames = Locked<Set<String>>([])

    /// Snapshots in `directory`; recording when `RECORD_SNAPSHOTS` is `1` unless said otherwise.
    public init(directory: String, recording: Bool? = nil) {
        self.directory = directory
        isRecording = recording ?? (ProcessInfo.processInfo.environment[Self.recordVariable] == "1")
    }

    /// Snapshots in `__Snapshots__` beside the test file `file` (pass `#filePath`).
    public init(besides file: String, recording: Bool? = nil) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("__Snapshots__").path
        self.init(directory: folder, recording: recording)
    }

    /// Checks `render`'s canvas at each of `sizes` against `NAME.SIZE.txt`.
    public func verify(_ name: String, sizes: [Size] = Snapshots.standardSizes, render: (Size) throws -> Canvas) throws
    {
        guard !name.isEmpty, !name.hasPrefix("."),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else {
            throw SnapshotFailure.invalidName(name)
        }
        guard !sizes.isEmpty else { throw SnapshotFailure.noSizes(name) }
        let key = directory + "/" + name
        let fresh = Self.usedNames.withLock { $0.insert(key).inserted }
        guard fresh else { throw SnapshotFailure.duplicateName(name) }

        var problems: [SnapshotFailure.Problem] = []
        for size in sizes {
            let rendering = SnapshotText.render(try render(size))
            let path = "\(directory)/\(name).\(size).txt"
            let stored = try? String(contentsOfFile: path, encoding: .utf8)
            if isRecording {
                if stored != rendering { try record(rendering, at: path) }
            } else if let stored {
                if stored != rendering {
                    problems.append(
                        .different(path: path, diff: LineDiff.describe(expected: stored, actual: rendering)))
                }
            } else {
                problems.append(.missing(path: path, rendering: rendering))
            }
        }
        if !problems.isEmpty { throw SnapshotFailure.mismatched(name: name, problems: problems) }
    }

    /// Checks `view` showing `model`, laid out at each of `sizes`.
    public func verify<View: ModellableView>(
        _ name: String, of view: View, model: View.ViewModel, sizes: [Size] = Snapshots.standardSizes
    ) throws {
        try verify(name, sizes: sizes) { size in
            view.layout(size: size)
            view.model = model
            return view.canvas
        }
    }

    private func record(_ rendering: String, at path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try rendering.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw SnapshotFailure.cannotWrite(path: path, reason: "\(error)")
        }
    }
}
