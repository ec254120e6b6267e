import FuzzSupport
import TerminalUI

/// The terminal key decoder fed the same bytes whole and cut into pieces (as `read` may return
/// them): the same events, nothing left pending after `flush()`, and no crash on any byte
/// sequence. The first byte of the input picks the cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var source = ByteSource(bytes(data, size))
    let seed = source.byte()
    let stream = source.rest
    var whole = KeyDecoder()
    let wholeEvents = whole.feed(stream) + whole.flush()
    var cut = KeyDecoder()
    var cutEvents: [TerminalEvent] = []
    for piece in pieces(of: stream, seed: seed) { cutEvents += cut.feed(piece) }
    cutEvents += cut.flush()
    check(wholeEvents == cutEvents, "whole: \(wholeEvents), in pieces: \(cutEvents)")
    check(!whole.hasPendingInput && !cut.hasPendingInput, "bytes left pending after flush")
    check(whole.flush().isEmpty, "a second flush found events")
    check(wholeEvents.count <= stream.count, "more events than bytes")
    return 0
}
