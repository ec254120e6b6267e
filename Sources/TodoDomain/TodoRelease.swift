/// The release of the todo programs, shared by `todod` and `todo`.
public enum TodoRelease {
    /// Semantic version of this release.
    public static let version = "0.1.0"
}
