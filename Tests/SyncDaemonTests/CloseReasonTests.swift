import CUV
import SyncEngine
import Testing

@testable import SyncDaemon

/// Each disconnect reason's log level and text: failures of the socket and slow consumers are
/// warnings, everything a client or the daemon does on purpose is debug, in the words the
/// integration tests and operators look for.
@Suite struct CloseReasonTests {
    @Test func eachReasonChoosesItsLevelAndText() {
        let expected: [(CloseReason, LogLevel, String)] = [
            (.endOfInput, .debug, "client closed the connection"),
            (.clientWentAway(SocketError(code: UV_EPIPE.rawValue, name: "EPIPE")), .debug, "client went away (EPIPE)"),
            (.readFailed(SocketError(code: UV_EIO.rawValue, name: "EIO")), .warning, "read failed: EIO"),
            (.writeFailed(SocketError(code: UV_ENOBUFS.rawValue, name: "ENOBUFS")), .warning, "write failed: ENOBUFS"),
            (.slowConsumer(limit: 4096), .warning, "slow consumer: more than 4096 bytes of replies unwritten"),
            (.peerRefused, .debug, "refused: the peer policy does not allow this user"),
            (.handshakeRefused, .debug, "handshake refused"),
            (.framingBroken, .debug, "the client broke the framing"),
            (.shutdown, .debug, "daemon shutting down"),
            (.byeNotRead, .debug, "did not read its bye in time"),
            (.uncertainCommit, .debug, "daemon stopping: commit outcome unknown"),
            (.loopEnded, .debug, "still open when the event loop ended"),
        ]
        for (reason, level, text) in expected {
            #expect(reason.logLevel == level, "\(reason)")
            #expect(reason.logText == text, "\(reason)")
        }
    }

    @Test func aPeerClosingItsSocketIsNotAFailure() {
        for operation in [CloseReason.Operation.read, .write] {
            for code in [UV_EPIPE.rawValue, UV_ECONNRESET.rawValue] {
                let name = String(cString: uv_err_name(code))
                #expect(
                    CloseReason.failure(of: operation, status: code)
                        == .clientWentAway(SocketError(code: code, name: name)))
            }
        }
        let eio = SocketError(code: UV_EIO.rawValue, name: "EIO")
        #expect(CloseReason.failure(of: .read, status: UV_EIO.rawValue) == .readFailed(eio))
        #expect(CloseReason.failure(of: .write, status: UV_EIO.rawValue) == .writeFailed(eio))
        #expect(
            CloseReason.failure(of: .write, status: UV_ECONNRESET.rawValue).logText.hasPrefix(
                "client went away (E"))
    }
}
