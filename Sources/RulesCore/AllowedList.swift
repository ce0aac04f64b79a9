/// A list of allowed values as a message shows it (issue 40): whole when short, else its first few and how many more,
/// with where to read the rest, so that one refusal line stays under about 1 KB however many values there are (a
/// joint fit's world-check figures, a baseline's KPIs, a run's arms). Every message that lists what is allowed, known
/// or present goes through this.
public enum AllowedList {
    /// The most values shown.
    public static let maxItems = 12
    /// The most characters of values shown (each value is itself cut with `echoed`).
    public static let maxCharacters = 480

    /// `a, b, c` when every value fits; else `a, b, c, … and 40 more (see WHERE)` (`seeAlso` names where the whole list
    /// is, e.g. "habitat list"; nil: no pointer). Values are quoted as `echoed(limit: 60)` quotes them.
    public static func text(_ values: [String], separator: String = ", ", seeAlso: String? = nil) -> String {
        var shown: [String] = []
        var length = 0
        for value in values {
            let v = value.echoed(limit: 60)
            guard shown.count < maxItems, length + v.count + separator.count <= maxCharacters else { break }
            shown.append(v)
            length += v.count + separator.count
        }
        let rest = values.count - shown.count
        guard rest > 0 else { return shown.joined(separator: separator) }
        let more = "… and \(rest) more" + (seeAlso.map { " (see \($0))" } ?? "")
        return shown.isEmpty ? more : shown.joined(separator: separator) + separator + more
    }
}
