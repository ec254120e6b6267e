/// Identifies one distinct (view model, params) pair of a `ViewHub`. Not nested in the generic
/// hub, so that its type metadata is not looked up at run time on every use.
struct ViewKey: Hashable {
    let viewModel: String
    let params: AnyHashable
}

/// One subscriber of a `ViewHub` pair: a connection and the subscription id it chose for it.
struct ViewSubscriber: Hashable {
    let connectionID: Int
    let subscription: Int64
}
