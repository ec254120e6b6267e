import FuzzSupport
import SyncProtocol

/// The frame decoder, fed a stream whole and in pieces, against a reading of the frame layout
/// written here: the same frames, the same error, the same state at the end. The first byte of
/// the input picks the maximum frame length, the second how the stream is cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var source = ByteSource(bytes(data, size))
    let maximum = [1, 4, 100, 1 << 20][source.below(4)]
    let seed = source.byte()
    let stream = source.rest
    let expected = expectedReading(of: stream, maximum: maximum)
    let whole = decode([stream[...]], maximum: maximum)
    let cut = decode(pieces(of: stream, seed: seed), maximum: maximum)
    check(whole == expected, "whole stream: \(whole) instead of \(expected)")
    check(cut == expected, "stream in pieces: \(cut) instead of \(expected)")
    return 0
}

/// What a decoder made of a stream.
struct Reading: Equatable {
    var frames: [[UInt8]] = []
    var error: FrameError?
    var state: FrameDecoder.ReadState = .waitingForHeader
}

/// Feeds `pieces` in turn, taking every frame each one completes.
func decode(_ pieces: [ArraySlice<UInt8>], maximum: Int) -> Reading {
    var decoder = FrameDecoder(maximumLength: maximum)
    var reading = Reading()
    for piece in pieces {
        decoder.append(piece)
        do {
            while let frame = try decoder.next() { reading.frames.append(frame) }
        } catch {
            reading.error = error
            do {
                _ = try decoder.next()
                check(false, "a failed decoder returned a frame")
            } catch let again {
                check(again == error, "a failed decoder changed its error from \(error) to \(again)")
            }
            break
        }
    }
    reading.state = decoder.readState
    return reading
}

/// The layout read directly: a 4-byte big-endian length, then that many bytes.
func expectedReading(of stream: [UInt8], maximum: Int) -> Reading {
    var reading = Reading()
    var offset = 0
    while stream.count - offset >= 4 {
        let length = stream[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let error: FrameError? =
            length == 0 ? .emptyFrame : length > maximum ? .frameTooLarge(length: length, maximum: maximum) : nil
        if let error {
            reading.error = error
            reading.state = .failed(error)
            return reading
        }
        guard stream.count - offset - 4 >= length else {
            reading.state = .waitingForBody(length: length)
            return reading
        }
        reading.frames.append(Array(stream[offset + 4..<offset + 4 + length]))
        offset += 4 + length
    }
    return reading
}
