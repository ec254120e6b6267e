/// `subscribe {id, viewModel, params}`. The params are the view model's: the server decodes them
/// by its type (`SubscribeEnvelope`).
public struct SubscribeRequest: RequestMessage {
    public static let type = "subscribe"
    public var id: Int64
    /// The view model's wire name.
    public var viewModel: String

    /// A subscription to the view model named `viewModel`.
    public init(id: Int64, viewModel: String) {
        self.id = id
        self.viewModel = viewModel
    }

    public init(id: Int64) { self.init(id: id, viewModel: "") }

    public mutating func visitFields(_ visitor: inout some RequestFieldVisitor) {
        visitor.attachment("params")
        visitor.required("viewModel", &viewModel)
    }

    /// The payload to send, with the view model's `params`.
    public func encoded(params: some Encodable) throws -> [UInt8] {
        encoded(attaching: try WireJSON.encode(params))
    }
}
