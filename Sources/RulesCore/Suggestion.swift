/// "Did you mean …?" suggestions by edit distance, used by every error that names an unknown word.
public enum Suggestion {
    /// The candidate closest to `word` (case-insensitive Levenshtein), if it is close enough to be a likely typo.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            if d < (best?.1 ?? .max) { best = (c, d) }
        }
        guard let (candidate, d) = best else { return nil }
        let limit = max(2, w.count / 3)
        return d <= limit ? candidate : nil
    }

    /// Levenshtein distance between two character arrays.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count), cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}
