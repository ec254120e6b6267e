import Testing

@testable import SyncProtocol

@Suite struct FrameDecoderTests {
    private let payloads: [[UInt8]] = [
        Array(#"{"type":"ping","id":1}"#.utf8), [0x7B, 0x7D], Array(repeating: 0x61, count: 70_000),
    ]

    private var stream: [UInt8] { payloads.flatMap(FrameEncoder.frame) }

    private func drain(_ decoder: inout FrameDecoder) throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return frames
    }

    @Test func decodesFramesFedOneByteAtATime() throws {
        var decoder = FrameDecoder()
        var frames: [[UInt8]] = []
        for byte in stream {
            decoder.append([byte])
            frames += try drain(&decoder)
        }
        #expect(frames == payloads)
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.readState == .waitingForHeader)
    }

    @Test func decodesManyFramesDeliveredAtOnce() throws {
        var decoder = FrameDecoder()
        decoder.append(stream)
        #expect(try drain(&decoder) == payloads)
    }

    @Test func reportsWhereItIsInAFrame() throws {
        var decoder = FrameDecoder()
        decoder.append([0, 0])
        #expect(try decoder.next() == nil)
        #expect(decoder.readState == .waitingForHeader)
        decoder.append([0, 5, 0x7B])
        #expect(try decoder.next() == nil)
        #expect(decoder.readState == .waitingForBody(length: 5))
        decoder.append(Array(#""a":1}"#.utf8).prefix(4))
        #expect(try decoder.next() == Array(#"{"a":"#.utf8))
    }

    @Test func acceptsAFrameOfExactlyTheMaximum() throws {
        var decoder = FrameDecoder(maximumLength: 16)
        decoder.append(FrameEncoder.frame(Array(repeating: 0x20, count: 16)))
        #expect(try decoder.next()?.count == 16)
    }

    @Test(arguments: [17, 1 << 20, Int(UInt32.max)])
    func refusesALengthOverTheMaximumFromTheHeaderAlone(length: Int) throws {
        var decoder = FrameDecoder(maximumLength: 16)
        let header = withUnsafeBytes(of: UInt32(length).bigEndian, Array.init)
        decoder.append(header)
        #expect(throws: FrameError.frameTooLarge(length: length, maximum: 16)) { try decoder.next() }
        // The error is sticky: the stream cannot be resynchronised.
        decoder.append(FrameEncoder.frame([0x7B, 0x7D]))
        #expect(throws: FrameError.frameTooLarge(length: length, maximum: 16)) { try decoder.next() }
    }

    @Test func refusesAnEmptyFrame() throws {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 0, 0x7B])
        #expect(throws: FrameError.emptyFrame) { try decoder.next() }
    }

    @Test func returnsFramesBeforeABadHeaderThenFails() throws {
        var decoder = FrameDecoder(maximumLength: 100)
        decoder.append(FrameEncoder.frame([0x31]) + [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try decoder.next() == [0x31])
        #expect(throws: FrameError.self) { try decoder.next() }
    }

    @Test func keepsItsBufferBoundedAcrossManyFrames() throws {
        var decoder = FrameDecoder()
        let frame = FrameEncoder.frame(Array(repeating: 0x78, count: 1000))
        for _ in 0..<10_000 {
            decoder.append(frame)
            #expect(try decoder.next()?.count == 1000)
        }
        #expect(decoder.bufferedByteCount == 0)
    }
}
