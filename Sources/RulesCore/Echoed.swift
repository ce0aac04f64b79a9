extension StringProtocol {
    /// The text as a message quotes it: whole when it has at most `limit` characters, else its first `limit - 20`
    /// characters, `…` and how long it was (`abcabc… (100000 characters)`), so that a 100 000-character key, value,
    /// name or path makes a readable line, not a 200 KB one (issue 30). Every message that quotes what a person typed
    /// or a file held goes through this (`echoedPath` for paths).
    public func echoed(limit: Int = 80) -> String {
        guard utf8.count > limit else { return String(self) }
        let length = unicodeScalars.count
        guard length > limit else { return String(self) }
        return String(prefix(Swift.max(limit - 20, 1))) + "… (\(length) characters)"
    }

    /// A path as a message quotes it: whole up to 240 characters (paths are long and worth reading in full), else
    /// cut as `echoed(limit:)` cuts.
    public var echoedPath: String { echoed(limit: 240) }
}
