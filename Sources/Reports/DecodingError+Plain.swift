extension DecodingError {
    /// The error in words for a person — which key, and what was wrong (`arms.[0].installs: wrong type or value`) —
    /// never Swift's `DecodingError` dump, which names types and internals users do not know.
    public var plainDescription: String {
        func path(_ c: [CodingKey]) -> String { c.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") }
        switch self {
        case .keyNotFound(let key, let ctx): return "\(path(ctx.codingPath + [key])): missing"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx):
            return "\(path(ctx.codingPath)): wrong type or value"
        case .dataCorrupted(let ctx):
            return ctx.codingPath.isEmpty ? "not valid JSON" : "\(path(ctx.codingPath)): invalid value"
        @unknown default: return "unreadable"
        }
    }
}

/// Any error in words: a `DecodingError` as `plainDescription`, anything else as it describes itself.
public func plainDescription(of error: any Error) -> String {
    (error as? DecodingError)?.plainDescription ?? "\(error)"
}
