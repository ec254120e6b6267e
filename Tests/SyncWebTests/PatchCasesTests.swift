import Foundation
import SyncProtocol
import Testing

/// The RFC 6902 cases the page's patch.js is checked against in a real browser
/// (`browser_check.py`), applied here with the daemon's `JSONPatch`: both ends follow the same
/// rules, case by case.
@Suite struct PatchCasesTests {
    private struct Case: Decodable {
        let name: String
        let document: JSONValue
        let patch: JSONPatch
        let expected: JSONValue?
        let error: Bool?
    }

    private static let cases: [Case] = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../IntegrationTests/Web/Scripts/patch_cases.json").standardized.path
        guard let data = FileManager.default.contents(atPath: path),
            let cases = try? JSONDecoder().decode([Case].self, from: data)
        else { return [] }
        return cases
    }()

    @Test func theCasesAreThere() {
        #expect(Self.cases.count >= 15)
    }

    @Test(arguments: cases.map(\.name)) func theDaemonsPatchFollowsTheCase(_ name: String) throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        if testCase.error == true {
            #expect(throws: JSONPatchError.self) { try testCase.patch.apply(to: testCase.document) }
        } else {
            #expect(try testCase.patch.apply(to: testCase.document) == (testCase.expected ?? .null))
        }
    }
}
