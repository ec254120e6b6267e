import FuzzSupport
import SyncProtocol

/// JSON Patch as the daemon makes it and SyncClient applies it, on two documents built from the
/// input: the patch from one to the other turns the first into the second and survives the
/// wire; arbitrary operations (any op, paths that fit or not) apply or throw, never crash, and
/// what they leave goes over the wire unchanged; the rest of the input, read as a patch
/// document, applies or throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var source = ByteSource(bytes(data, size))
    let old = source.jsonValue()
    let new = source.jsonValue()
    let patch = JSONPatch(from: old, to: new)
    let patched = Result { () throws(JSONPatchError) in try patch.apply(to: old) }
    check((try? patched.get()) == new, "the patch from \(old) to \(new) gave \(patched)")
    check(roundTrip(patch) == patch, "the patch \(patch) changed on the wire")

    let operations = (0..<source.below(5)).map { _ in
        JSONPatch.Operation(
            op: ["add", "remove", "replace", "test", "move", "copy", "ADD", ""][source.below(8)],
            path: source.pointer(),
            value: source.below(4) == 0 ? nil : source.jsonValue())
    }
    if let result = try? JSONPatch(operations: operations).apply(to: old) {
        check(roundTrip(result) == result, "\(result) changed on the wire")
    }
    if let wirePatch = try? WireJSON.decode(JSONPatch.self, from: source.rest) {
        _ = try? wirePatch.apply(to: old)
    }
    return 0
}

/// `value` encoded with the wire settings and decoded again.
func roundTrip<T: Codable>(_ value: T) -> T? {
    guard let bytes = try? WireJSON.encode(value) else { return nil }
    return try? WireJSON.decode(T.self, from: bytes)
}
