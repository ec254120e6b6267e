/// `bytes` cut into pieces of 1 to 17 bytes, the sizes drawn from `seed`: how a stream may
/// arrive from a socket, for targets that check that the cut does not matter.
public func pieces(of bytes: [UInt8], seed: UInt8) -> [ArraySlice<UInt8>] {
    var state = UInt32(seed) &* 2_654_435_761 | 1
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
        state = state &* 1_103_515_245 &+ 12_345
        let end = min(bytes.count, start + 1 + Int(state >> 16) % 17)
        result.append(bytes[start..<end])
        start = end
    }
    return result
}
