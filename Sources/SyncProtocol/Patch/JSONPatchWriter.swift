import SyncDiff

/// The one writer of JSON Patches: `ModelChange`s, from a `DiffableViewModel` or from
/// `JSONPatch.changes(from:to:)`, as the RFC 6902 array the wire carries, each value written
/// straight from its own encoding (keys in the sorted order the wire uses: `op`, `path`, `value`).
public enum JSONPatchWriter {
    /// `changes` as an encoded JSON Patch; throws what encoding a value threw.
    public static func encode(_ changes: [ModelChange]) throws -> [UInt8] {
        var patch: [UInt8] = [UInt8(ascii: "[")]
        for (index, change) in changes.enumerated() {
            if index > 0 { patch.append(UInt8(ascii: ",")) }
            let (op, path, value): (String, [String], (any Encodable)?) =
                switch change {
                case .add(let path, let value): ("add", path, value)
                case .remove(let path): ("remove", path, nil)
                case .replace(let path, let value): ("replace", path, value)
                }
            patch.append(contentsOf: #"{"op":"\#(op)","path":"#.utf8)
            try WireJSON.appendString(JSONPatch.pointer(path), to: &patch)
            if let value {
                patch.append(contentsOf: #","value":"#.utf8)
                patch += try WireJSON.encode(value)
            }
            patch.append(UInt8(ascii: "}"))
        }
        patch.append(UInt8(ascii: "]"))
        return patch
    }
}
