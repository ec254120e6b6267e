extension Int {
    /// `1 action`, `2 actions`.
    package func counting(_ noun: String) -> String { "\(self) \(noun)\(self == 1 ? "" : "s")" }
}
