import CUV
import Testing

@testable import SyncDaemon

/// Each disconnect reason's log level and text: failures of the socket and slow consumers are
/// warnings, everything a client or the daemon does on purpose is debug, in the words the
/// integration tests and operators look for.
@Suite struct DisconnectReasonTests {
    @Test func eachReasonChoosesItsLevelAndText() {
        let expected: [(DisconnectReason, Logger.Level, String)] = [
            (.endOfInput, .debug, "client closed the connection"),
            (.clientWentAway(code: UV_EPIPE.rawValue), .debug, "client went away (EPIPE)"),
            (.readFailed(code: UV_EIO.rawValue), .warning, "read failed: EIO"),
            (.writeFailed(code: UV_ENOBUFS.rawValue), .warning, "write failed: ENOBUFS"),
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
        for operation in [DisconnectReason.Operation.read, .write] {
            for code in [UV_EPIPE.rawValue, UV_ECONNRESET.rawValue] {
                #expect(DisconnectReason.failure(of: operation, status: code) == .clientWentAway(code: code))
            }
        }
        #expect(DisconnectReason.failure(of: .read, status: UV_EIO.rawValue) == .readFailed(code: UV_EIO.rawValue))
        #expect(DisconnectReason.failure(of: .write, status: UV_EIO.rawValue) == .writeFailed(code: UV_EIO.rawValue))
        #expect(
            DisconnectReason.failure(of: .write, status: UV_ECONNRESET.rawValue).logText.hasPrefix(
                "client went away (E"))
    }
}
