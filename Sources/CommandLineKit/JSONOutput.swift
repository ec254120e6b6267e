import SyncProtocol

/// The `--json` form of a command's output: one line of JSON with sorted keys (the wire's
/// settings), so scripts can rely on its format.
public enum JSONOutput {
    /// `value` as one line of JSON and a newline; `what` names it if it cannot be encoded
    /// (`the list`).
    public static func line(_ value: some Encodable, what: String) throws(CLIError) -> String {
        do {
            return String(decoding: try WireJSON.encode(value), as: UTF8.self) + "\n"
        } catch {
            throw .rejected("cannot encode \(what): \(error)")
        }
    }
}
