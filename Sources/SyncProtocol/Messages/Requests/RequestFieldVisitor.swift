/// What walks a request's fields (see `RequestMessage.visitFields`): each call names one field
/// and gives its storage, which a reader fills in and the writer reads.
public protocol RequestFieldVisitor {
    /// A field without which the request is refused ("needs the field").
    mutating func required<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value)
    /// A field that may be absent (`nil`, not written).
    mutating func optional<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value?)
    /// A field that may be absent, meaning the value it starts with; written unless the value
    /// is one that is omitted (`RequestFieldValue.isOmitted`).
    mutating func defaulted<Value: RequestFieldValue>(_ name: StaticString, _ value: inout Value)
    /// A required object whose members `body` visits; a fault inside it is a fault of `name`.
    mutating func object(_ name: StaticString, _ body: (inout Self) -> Void)
    /// An app-typed value (a payload, params) that the server decodes on its own once it knows
    /// the type: skipped by the readers (the scan notes where it is), written from the bytes
    /// the caller encoded.
    mutating func attachment(_ name: StaticString)
}
