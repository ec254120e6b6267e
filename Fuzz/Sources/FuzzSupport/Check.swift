#if canImport(Glibc)
    import Glibc
#endif

/// Stops the run with `message` on standard error when a property the target checks does not
/// hold: libFuzzer takes the trap as a crash and saves the input that caused it.
public func check(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition() else { return }
    fatalError("property broken: \(message())", file: file, line: line)
}

/// The bytes of a fuzz input as an array.
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
