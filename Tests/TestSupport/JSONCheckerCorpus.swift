import Foundation

/// The JSON_checker conformance corpus (json.org's `pass1`–`pass3` and `fail1`–`fail33`, plus
/// one control-character case), read at test time from Debian's `libpython3.11-testsuite`,
/// where CPython's tests hold it (`test/test_json/test_fail.py`, `test_pass*.py`). The README's
/// test command installs that package; nothing of the corpus is copied into this project.
///
/// Each document is judged by RFC 8259: `fail1` (a string at the top level, which RFC 7159
/// allowed) and `fail18` (20 nested arrays: the nesting limit is the reader's, 512 here) are
/// valid JSON texts; every other `fail` document is not, and every `pass` document is.
public struct JSONCheckerCorpus: Sendable {
    /// One document: its name in the corpus, its bytes, and whether it is one JSON text.
    public struct Document: Sendable {
        /// `pass1`, `fail25`, …
        public let name: String
        /// The document's UTF-8 bytes.
        public let bytes: [UInt8]
        /// Whether it is valid RFC 8259 JSON.
        public let isValid: Bool
    }

    /// Every document, pass ones first.
    public let documents: [Document]

    /// The `fail` documents that are valid under RFC 8259 (see the type's summary).
    public static let validUnderRFC8259: Set<String> = ["fail1", "fail18"]

    /// Reads the corpus with Debian's Python, which parses the test files (`ast`: nothing runs).
    public static func load() throws -> JSONCheckerCorpus {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let python = try ChildProcess("/usr/bin/python3", ["-c", script], outputDirectory: directory)
        guard try python.waitForExit() == 0 else {
            throw TestFailure(
                "cannot read the JSON_checker corpus (install libpython3.11-testsuite, as the README's test command does): \(python.standardError)"
            )
        }
        var documents: [Document] = []
        for line in python.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let bytes = hexBytes(fields[1]) else {
                throw TestFailure("unreadable corpus line: \(line)")
            }
            let name = String(fields[0])
            documents.append(
                Document(name: name, bytes: bytes, isValid: name.hasPrefix("pass") || validUnderRFC8259.contains(name)))
        }
        guard documents.filter({ $0.name.hasPrefix("pass") }).count == 3,
            documents.filter({ $0.name.hasPrefix("fail") }).count >= 33
        else {
            throw TestFailure("the JSON_checker corpus is incomplete: \(documents.map(\.name))")
        }
        return JSONCheckerCorpus(documents: documents)
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }

    /// Prints `NAME HEX` per document: the `JSON` string of each `test_passN.py`, then each
    /// entry of `JSONDOCS` in `test_fail.py` as `failN`.
    private static let script = """
        import ast, glob, sys
        found = sorted(glob.glob('/usr/lib/python3*/test/test_json/test_fail.py'))
        if not found: sys.exit('no /usr/lib/python3*/test/test_json/test_fail.py')
        base = found[-1].rsplit('/', 1)[0]
        def assigned(path, name):
            for node in ast.parse(open(path, encoding='utf-8').read()).body:
                if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', None) == name:
                    return ast.literal_eval(node.value)
            sys.exit('no %s in %s' % (name, path))
        for n in (1, 2, 3):
            print('pass%d' % n, assigned('%s/test_pass%d.py' % (base, n), 'JSON').encode('utf-8').hex())
        for n, doc in enumerate(assigned(base + '/test_fail.py', 'JSONDOCS'), 1):
            print('fail%d' % n, doc.encode('utf-8').hex())
        """
}
