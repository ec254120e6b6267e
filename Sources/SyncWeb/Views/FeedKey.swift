/// One subscription to the daemon, shared by every browser that asks for the same view model
/// with the same params: the name and the params as the view model's type encodes them.
struct FeedKey: Hashable, Sendable {
    /// The view model's wire name.
    let viewModel: String
    /// The params, encoded with sorted keys.
    let params: [UInt8]
}
