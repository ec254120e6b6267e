/// `get {id, viewModel, params, at?}`: the model once, at the current version or, with `at`, as
/// it was at that past version. The params are the view model's, as in `subscribe`.
public struct GetRequest: RequestMessage {
    public static let type = "get"
    public var id: Int64
    /// The view model's wire name.
    public var viewModel: String
    /// The past version asked for, if any.
    public var at: Int64?

    /// A one-shot read of the view model named `viewModel`.
    public init(id: Int64, viewModel: String, at: Int64? = nil) {
        self.id = id
        self.viewModel = viewModel
        self.at = at
    }

    public init(id: Int64) { self.init(id: id, viewModel: "") }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.optional("at", &at)
        visitor.attachment("params")
        visitor.required("viewModel", &viewModel)
    }

    public func refusal() -> String? {
        at.map { $0 >= 0 } ?? true ? nil : "\"at\" must be a version: an integer of at least 0."
    }

    /// The payload to send, with the view model's `params`.
    public func encoded(params: some Encodable) throws -> [UInt8] {
        encoded(attaching: try WireJSON.encode(params))
    }
}
