/// The strict RFC 8259 reader behind `JSONObjectFields` and `PlainJSONDecoder`: walks a byte
/// buffer as one JSON text, recording the top-level object's members (or array's elements), and
/// those of the objects along a path of keys when asked (`topLevelObject(expanding:into:)`),
/// and skipping everything else inside them without building any value. Every byte is checked: the
/// grammar, UTF-8 inside strings, escapes, surrogate pairs and the nesting limit (see
/// `JSONSyntaxError`).
///
/// Every method returns `nil` on anything it does not accept. When the bytes are not valid JSON,
/// `fault` says why; it stays `nil` when a method refuses valid JSON it does not handle (a
/// top-level key with an escape or given twice, a top level of another kind).
///
/// Nested arrays and objects are skipped by a loop over a stack of open brackets, not by
/// recursion, so no input can exhaust the call stack (the objects along a path recurse once per
/// key of the path, which the caller writes).
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    /// Where the text starts: fault offsets count from here.
    private let start: Int
    let end: Int
    /// Whether every string scanned so far had no escape, every number was an integer without
    /// fraction or exponent, and no nested object named a key twice: what `PlainJSONDecoder`
    /// needs to decode exactly as `JSONDecoder` would. (Duplicate keys are only looked for
    /// when `checksNestedKeys` is set.)
    var isPlain = true
    /// Whether nested objects are checked for duplicate keys (see `isPlain`).
    var checksNestedKeys = false
    /// The first syntax fault found, if the scan met one.
    private(set) var fault: JSONSyntaxError?
    /// Where the last comma read was, to point at a trailing one.
    private var lastComma = 0

    /// A scanner of `bytes[start..<end]`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        self.bytes = bytes
        index = start
        self.start = start
        self.end = end
    }

    /// Why `bytes` are not one JSON text, or `nil` when they are one.
    static func fault(in bytes: [UInt8]) -> JSONSyntaxError? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, start: 0, end: buffer.count)
            return scanner.topLevelValue() == nil ? scanner.fault : nil
        }
    }

    /// The members of the object that makes up the whole range (whitespace around it allowed);
    /// `nil` if it is not one, or, when `plainKeys`, if a key has escapes or appears twice.
    mutating func topLevelObject(plainKeys: Bool = true) -> [JSONObjectFields.Member]? {
        var levels = ObjectLevels()
        return topLevelObject(plainKeys: plainKeys, expanding: [], into: &levels)
    }

    /// The members of the top-level object as `topLevelObject(plainKeys:)` finds them, and in
    /// the same pass those of the object values along `path`: the member named `path[0]`, when
    /// its value is an object, is scanned as one, then its member `path[1]`, and so on. Each
    /// such object whose keys are plain goes to `levels` (as many as it holds); the last one on the path
    /// is scanned for `isPlain` as well, and says whether it is (`ObjectLevel.isPlain`): the
    /// scanner's own `isPlain` then speaks for that object only.
    mutating func topLevelObject(
        plainKeys: Bool = true, expanding path: [StaticString], into levels: inout ObjectLevels
    ) -> [JSONObjectFields.Member]? {
        skipWhitespace()
        guard let first = peek() else { return fail(.unexpectedEnd) }
        guard first == UInt8(ascii: "{") else {
            // Not an object: valid or not, this method does not take it.
            return nil
        }
        guard let object = object(depth: 1, path: path[...], refusesUnplainKeys: plainKeys, levels: &levels) else {
            return nil
        }
        return atEnd() ? object.members : nil
    }

    /// Scans the object whose `{` is at `index`, itself at nesting `depth`, to past its `}`;
    /// returns its members and whether its keys are plain (none with escapes, none twice), or
    /// `nil` on a fault, and, when `refusesUnplainKeys`, at a key that is not plain. A member named
    /// `path.first` whose value is an object is scanned by `expand`.
    private mutating func object(
        depth: Int, path: ArraySlice<StaticString>, refusesUnplainKeys: Bool, levels: inout ObjectLevels
    ) -> (members: [JSONObjectFields.Member], plainKeys: Bool)? {
        index += 1
        var members: [JSONObjectFields.Member] = []
        // Room for a request's or a small payload's members at once: growing from empty
        // reallocated the array twice in every dispatch.
        members.reserveCapacity(8)
        var plainKeys = true
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return (members, plainKeys)
        }
        while true {
            guard let key = memberKey() else { return nil }
            let inner = (key.lowerBound + 1)..<(key.upperBound - 1)
            if plainKeys && (hasBackslash(inner) || members.contains(where: { equal($0.key, inner) })) {
                if refusesUnplainKeys { return nil }
                plainKeys = false
            }
            let valueStart = index
            let kind: JSONObjectFields.Kind
            if let next = path.first, peek() == UInt8(ascii: "{"), matches(inner, next) {
                guard expand(depth: depth + 1, path: path, levels: &levels) else { return nil }
                kind = .object
            } else {
                guard let scalarOrContainer = value(depth: depth + 1) else { return nil }
                kind = scalarOrContainer
            }
            members.append(.init(key: inner, value: valueStart..<index, kind: kind))
            guard let closed = afterMember(closing: UInt8(ascii: "}")) else { return nil }
            if closed { break }
        }
        return (members, plainKeys)
    }

    /// Scans the object value at `index` (at nesting `depth`) as the object `path.first` names
    /// (see `topLevelObject(expanding:into:)`); `false` on a fault.
    private mutating func expand(depth: Int, path: ArraySlice<StaticString>, levels: inout ObjectLevels) -> Bool {
        guard depth <= JSONSyntaxError.maximumDepth else { return fail(.tooDeep) ?? false }
        let start = index
        let isLast = path.count == 1
        let (outerPlain, outerChecks) = (isPlain, checksNestedKeys)
        if isLast { (isPlain, checksNestedKeys) = (true, true) }
        let scanned = object(depth: depth, path: path.dropFirst(), refusesUnplainKeys: false, levels: &levels)
        let innerPlain = isPlain
        if isLast { (isPlain, checksNestedKeys) = (outerPlain && innerPlain, outerChecks) }
        guard let scanned else { return false }
        if scanned.plainKeys {
            levels.append(
                ObjectLevel(depth: depth, start: start, members: scanned.members, isPlain: isLast && innerPlain))
        }
        return true
    }

    /// The elements of the array that makes up the whole range (whitespace around it allowed);
    /// `nil` if it is not one.
    mutating func topLevelArray() -> [(value: Range<Int>, kind: JSONObjectFields.Kind)]? {
        skipWhitespace()
        guard let first = peek() else { return fail(.unexpectedEnd) }
        guard first == UInt8(ascii: "[") else { return nil }
        index += 1
        var elements: [(value: Range<Int>, kind: JSONObjectFields.Kind)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                let valueStart = index
                guard let kind = value(depth: 2) else { return nil }
                elements.append((valueStart..<index, kind))
                guard let closed = afterMember(closing: UInt8(ascii: "]")) else { return nil }
                if closed { break }
            }
        }
        return atEnd() ? elements : nil
    }

    /// The kind of the one value that makes up the whole range (whitespace around it allowed);
    /// `nil` (with `fault` set) if the range is not one JSON text.
    mutating func topLevelValue() -> (value: Range<Int>, kind: JSONObjectFields.Kind)? {
        skipWhitespace()
        let valueStart = index
        guard let kind = value(depth: 1) else { return nil }
        let valueEnd = index
        return atEnd() ? (valueStart..<valueEnd, kind) : nil
    }

    /// After a member or element of a top-level container: `true` past its closing bracket,
    /// `false` past a comma with the next member or element at `index`, `nil` on a fault.
    private mutating func afterMember(closing: UInt8) -> Bool? {
        skipWhitespace()
        guard let next = peek() else { return fail(.unexpectedEnd) }
        index += 1
        if next == closing { return true }
        guard next == UInt8(ascii: ",") else { return fail(.unexpectedByte(next), at: index - 1) }
        lastComma = index - 1
        skipWhitespace()
        if peek() == closing { return fail(.trailingComma, at: lastComma) }
        return false
    }

    /// Whether only whitespace is left; a fault if more is.
    private mutating func atEnd() -> Bool {
        skipWhitespace()
        guard index == end else { return fail(.trailingContent) ?? false }
        return true
    }

    /// Skips one value starting at `index`, nested `depth` arrays and objects deep if it is
    /// one of them (the top level is depth 1); returns its kind.
    private mutating func value(depth: Int) -> JSONObjectFields.Kind? {
        guard let first = peek() else { return fail(.unexpectedEnd) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return container(depth: depth) }
        return scalar(first)
    }

    /// Skips an object or array (and everything in it) whose opening bracket is at `index`,
    /// itself at nesting `depth`.
    ///
    /// ```
    ///        .value ──(scalar, or an empty container)──▶ .afterValue ──(',')──▶ .value
    ///          │  ▲                                          │   ▲
    ///   ('[' '{')└─┘ push                      (']' '}') pop └───┘   returns once nothing is open
    /// ```
    private mutating func container(depth: Int) -> JSONObjectFields.Kind? {
        let kind: JSONObjectFields.Kind = bytes[index] == UInt8(ascii: "{") ? .object : .array
        var open = OpenBrackets()
        /// The keys of each open object, innermost last, while `checksNestedKeys`.
        var keys: [[Range<Int>]] = []
        var expectsValue = true
        while true {
            if expectsValue {
                guard let byte = peek() else { return fail(.unexpectedEnd) }
                guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
                    guard scalar(byte) != nil else { return nil }
                    expectsValue = false
                    continue
                }
                guard depth + open.count <= JSONSyntaxError.maximumDepth else { return fail(.tooDeep) }
                let isObject = byte == UInt8(ascii: "{")
                open.push(isObject: isObject)
                if checksNestedKeys && isObject { keys.append([]) }
                index += 1
                skipWhitespace()
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    close(&open, &keys)
                    expectsValue = false
                } else if isObject {
                    guard nestedKey(&keys) else { return nil }
                }
                continue
            }
            if open.count == 0 { return kind }
            skipWhitespace()
            guard let byte = peek() else { return fail(.unexpectedEnd) }
            index += 1
            let inObject = open.innermostIsObject
            if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                close(&open, &keys)
            } else if byte == UInt8(ascii: ",") {
                lastComma = index - 1
                skipWhitespace()
                if peek() == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    return fail(.trailingComma, at: lastComma)
                }
                if inObject { guard nestedKey(&keys) else { return nil } }
                expectsValue = true
            } else {
                return fail(.unexpectedByte(byte), at: index - 1)
            }
        }
    }

    /// Leaves the innermost open container.
    private func close(_ open: inout OpenBrackets, _ keys: inout [[Range<Int>]]) {
        if checksNestedKeys && open.innermostIsObject { keys.removeLast() }
        open.pop()
    }

    /// Reads a key and its colon inside a nested object, noting a repeated key (see `isPlain`).
    private mutating func nestedKey(_ keys: inout [[Range<Int>]]) -> Bool {
        guard let key = memberKey() else { return false }
        if checksNestedKeys {
            if keys[keys.count - 1].contains(where: { equal($0, key) }) { isPlain = false }
            keys[keys.count - 1].append(key)
        }
        return true
    }

    /// Reads a key (a string; its range, quotes included), the colon after it and the
    /// whitespace around; `index` is then at the value.
    private mutating func memberKey() -> Range<Int>? {
        guard let byte = peek() else { return fail(.unexpectedEnd) }
        guard byte == UInt8(ascii: "\"") else { return fail(.unexpectedByte(byte)) }
        guard let key = string() else { return nil }
        skipWhitespace()
        guard let colon = peek() else { return fail(.unexpectedEnd) }
        guard colon == UInt8(ascii: ":") else { return fail(.unexpectedByte(colon)) }
        index += 1
        skipWhitespace()
        return key
    }

    /// Records the first fault (at `offset` in the buffer, else at `index`) and returns `nil`.
    mutating func fail<T>(_ reason: JSONSyntaxError.Reason, at offset: Int? = nil) -> T? {
        if fault == nil { fault = JSONSyntaxError(reason, at: (offset ?? index) - start) }
        return nil
    }

    /// Whether `range` holds a backslash (a key with an escape).
    private func hasBackslash(_ range: Range<Int>) -> Bool {
        range.contains { bytes[$0] == UInt8(ascii: "\\") }
    }

    /// Whether `range` holds the bytes of `key`.
    private func matches(_ range: Range<Int>, _ key: StaticString) -> Bool {
        guard range.count == key.utf8CodeUnitCount else { return false }
        return zip(range, 0..<key.utf8CodeUnitCount).allSatisfy { bytes[$0] == key.utf8Start[$1] }
    }

    /// Whether two ranges hold the same bytes.
    private func equal(_ left: Range<Int>, _ right: Range<Int>) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { bytes[$0] == bytes[$1] }
    }
}

/// One object scanned along a path of keys (`JSONScanner.topLevelObject(expanding:into:)`).
struct ObjectLevel {
    /// How deep the object is: 2 for a member of the top level, 3 for one of its members', …
    let depth: Int
    /// Where it starts (its `{`).
    let start: Int
    /// Its members.
    let members: [JSONObjectFields.Member]
    /// Whether everything in it is plain (see `JSONScanner.isPlain`): known for the last object
    /// on the path only, `false` for the others.
    let isPlain: Bool
}

/// The objects a scan along a path kept (`JSONScanner.topLevelObject(expanding:into:)`), held
/// inline so that the scan allocates nothing for them: up to two, enough for a dispatch's
/// action and payload. One more is not kept, which only means a second look at its bytes.
struct ObjectLevels {
    private var first: ObjectLevel?
    private var second: ObjectLevel?

    /// Keeps `level`, if there is room.
    mutating func append(_ level: ObjectLevel) {
        if first == nil {
            first = level
        } else if second == nil {
            second = level
        }
    }

    /// The object kept at `depth` that starts at `start`, if there is one.
    func level(depth: Int, start: Int) -> ObjectLevel? {
        if let first, first.depth == depth, first.start == start { return first }
        if let second, second.depth == depth, second.start == start { return second }
        return nil
    }
}

/// The arrays and objects open in a skip, innermost last: one bit each (set for an object).
/// The first 64 levels live in one word, so ordinary documents allocate nothing.
private struct OpenBrackets {
    private var shallow: UInt64 = 0
    private var deep: [UInt64] = []
    /// How many are open.
    private(set) var count = 0

    /// Opens one more.
    mutating func push(isObject: Bool) {
        if count < 64 {
            shallow = isObject ? shallow | (1 << count) : shallow & ~(1 << count)
        } else {
            let level = count - 64
            if level >> 6 == deep.count { deep.append(0) }
            let bit: UInt64 = 1 << (level & 63)
            deep[level >> 6] = isObject ? deep[level >> 6] | bit : deep[level >> 6] & ~bit
        }
        count += 1
    }

    /// Closes the innermost.
    mutating func pop() {
        count -= 1
    }

    /// Whether the innermost is an object.
    var innermostIsObject: Bool {
        let level = count - 1
        if level < 64 { return shallow & (1 << level) != 0 }
        return deep[(level - 64) >> 6] & (1 << ((level - 64) & 63)) != 0
    }
}
