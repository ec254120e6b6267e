/// The release of the board programs.
public enum BoardRelease {
    /// Semantic version of this release.
    public static let version = "0.1.0"
}
