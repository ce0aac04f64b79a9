/// "Did you mean …?" suggestions by edit distance, used by every error that names an unknown word.
public enum Suggestion {
    /// The candidate closest to `word` (case-insensitive Levenshtein), if it is close enough to be a likely typo.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let w = Array(word.lowercased())
        let limit = max(2, w.count / 3)
        var best: (String, Int)?
        for c in candidates {
            // Only a candidate strictly closer than the best so far, and within the limit, can change the answer;
            // the cut-off keeps long or numerous unknown words (hostile scenario files) from costing seconds.
            let cutoff = min(limit, (best?.1 ?? .max) - 1)
            if let d = distance(w, Array(c.lowercased()), atMost: cutoff) { best = (c, d) }
        }
        return best?.0
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

    /// The Levenshtein distance between two character arrays if it is at most `bound`, else nil (found without
    /// filling the whole table: the length difference is a lower bound, and so is the smallest cell of a row).
    static func distance(_ a: [Character], _ b: [Character], atMost bound: Int) -> Int? {
        guard bound >= 0, abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var prev = Array(0...b.count), cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            var rowMin = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMin = min(rowMin, cur[j])
            }
            if rowMin > bound { return nil }
            swap(&prev, &cur)
        }
        return prev[b.count] <= bound ? prev[b.count] : nil
    }
}
