/// The constants of wire protocol v1. docs/PROTOCOL.md is the full description.
///
/// Any change to the frame layout, a message's fields or their meaning bumps `version`, and the
/// handshake refuses peers that do not speak it (`unsupported_protocol`).
public enum WireProtocol {
    /// The protocol version this build speaks.
    public static let version = 1
    /// Every version this build can serve.
    public static let supportedVersions = [1]
    /// Default maximum payload length of one frame, in bytes (1 MiB).
    public static let defaultMaximumFrameLength = 1 << 20
    /// Length of the big-endian length prefix of every frame.
    public static let headerLength = 4
    /// Optional features a client may ask for in `hello` (`features`); `welcome` lists those
    /// granted. `patch`: updates after the first carry an RFC 6902 patch instead of the model.
    public static let features: Set<String> = ["patch"]
}
