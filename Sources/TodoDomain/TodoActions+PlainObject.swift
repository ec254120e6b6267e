import SyncProtocol

// The item actions read straight from their plain JSON (see `PlainObjectDecodable`): nearly
// every dispatch is one of them. Each reads every member its synthesized `init(from:)` reads,
// as that one does, and leaves anything else to it.

extension AddItem: PlainObjectDecodable {
    public init?(plainObject object: PlainObject) {
        guard let text = object.string("text"), let id = object.optionalString("id"),
            let createdAt = object.optionalInt64("createdAt"),
            let change = object.optionalInteger("change")
        else { return nil }
        self.init(text: text)
        (self.id, self.createdAt, self.change) = (id, createdAt, change)
    }
}

extension CompleteItem: PlainObjectDecodable {
    public init?(plainObject object: PlainObject) {
        guard let number = object.integer("number"),
            let completedAt = object.optionalInt64("completedAt"),
            let change = object.optionalInteger("change")
        else { return nil }
        self.init(number: number)
        (self.completedAt, self.change) = (completedAt, change)
    }
}

extension ReopenItem: PlainObjectDecodable {
    public init?(plainObject object: PlainObject) {
        guard let number = object.integer("number"), let change = object.optionalInteger("change") else { return nil }
        self.init(number: number)
        self.change = change
    }
}

extension EditItem: PlainObjectDecodable {
    public init?(plainObject object: PlainObject) {
        guard let number = object.integer("number"), let text = object.string("text"),
            let change = object.optionalInteger("change")
        else { return nil }
        self.init(number: number, text: text)
        self.change = change
    }
}

extension RemoveItem: PlainObjectDecodable {
    public init?(plainObject object: PlainObject) {
        guard let number = object.integer("number"),
            let doneBy = object.optionalInt64("doneBy"),
            let change = object.optionalInteger("change")
        else { return nil }
        self.init(number: number, doneBy: doneBy)
        self.change = change
    }
}
