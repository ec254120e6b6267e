import CUV
import SyncProtocol

/// Reading, a step of one dispatch's path: bytes from the socket into the loop's one read
/// buffer, cut into frames, each handed to the delegate (the server routes it).
extension Connection {
    /// Starts delivering frames to the delegate.
    func startReading() {
        perform(machine.startReading())
    }

    /// Stops delivering frames for good: backpressure will not resume reading.
    func endReading() {
        perform(machine.endInput(.byServer))
    }

    /// Decodes the `count` bytes just read and hands each complete frame to the delegate.
    fileprivate func didRead(_ count: Int) {
        decoder.append(UnsafeRawBufferPointer(rebasing: readBuffer.bytes[..<count]))
        while machine.isOpen {
            do {
                guard let payload = try decoder.next() else { return }
                delegate?.connection(self, didReceive: payload)
            } catch {
                perform(machine.endInput(.byServer))
                delegate?.connection(self, didBreakFraming: error)
                return
            }
        }
    }

    /// Lends the loop's read buffer to a read of this connection.
    static let onAllocate: uv_alloc_cb = { handle, _, buffer in
        let connection = owner(handle!.pointee.data)
        let bytes = connection.readBuffer.bytes
        buffer!.pointee = uv_buf_init(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
    }

    /// Bytes, the end of the stream, or a read error.
    static let onRead: uv_read_cb = { stream, nread, _ in
        let connection = owner(stream!.pointee.data)
        if nread > 0 {
            connection.didRead(nread)
        } else if nread == Int(UV_EOF.rawValue) {
            // The client may have only shut down its sending side: the delegate closes once
            // everything it asked for is answered.
            connection.perform(connection.machine.endInput(.byClient))
            connection.delegate?.connectionReachedEndOfInput(connection)
        } else if nread < 0 {
            connection.close(reason: .failure(of: .read, status: Int32(nread)))
        }
        // nread == 0 is EAGAIN, not EOF: nothing to do.
    }
}
