import RulesCore

/// The match decision of a verification scan (seed `004_8fa1e69c755a74b3.txt` §7 "Match Decision": "If best similarity
/// score exceeds threshold (cosine similarity ≥ 0.90) → match"; "require match in 3 consecutive frames to reduce false
/// positives (balanced policy)"), over a small set of candidate keys, each with its own run: the run of a key grows on
/// an accepted frame whose best similarity for that key is ≥ `verify.threshold` and resets otherwise, so the
/// `verify.consecutive_frames` frames of a match are all the same key's (inventory row 35). A rejected frame resets every
/// run when `verify.rejected_frame_breaks_run` (the default), or is skipped.
public struct ScanRun: Hashable, Sendable {
    /// The candidate keys (at most one main key, or the mode's unused temporary keys).
    public private(set) var candidates: [KeyID]
    /// Each candidate's run of consecutive matching frames.
    public private(set) var runs: [Int]
    /// Frames processed so far.
    public private(set) var frames = 0
    /// The longest run any candidate reached.
    public private(set) var longestRun = 0
    /// The best candidate similarity on an accepted frame.
    public private(set) var bestSimilarity = 0.0

    public init(candidates: [KeyID]) {
        self.candidates = candidates
        runs = Array(repeating: 0, count: candidates.count)
    }

    /// The longest run among the candidates now.
    public var currentRun: Int { runs.max() ?? 0 }

    /// Processes one frame; returns the candidate that now matches (the first in candidate order when several reach the
    /// run together), or nil.
    public mutating func process(_ frame: ScanFrame, accepted: Bool, parameters p: ClavisParameters) -> KeyID? {
        frames += 1
        guard accepted else {
            if p.rejectedFrameBreaksRun { for i in runs.indices { runs[i] = 0 } }
            return nil
        }
        var matched: KeyID?
        for (i, k) in candidates.enumerated() {
            let s = frame.best[k] ?? 0
            bestSimilarity = max(bestSimilarity, s)
            runs[i] = s >= p.threshold ? runs[i] + 1 : 0
            longestRun = max(longestRun, runs[i])
            if matched == nil && runs[i] >= p.consecutiveFrames { matched = k }
        }
        return matched
    }

    /// The whole-scan result of feeding `frames` (each with its acceptance by `ClavisParameters.check`) until the first
    /// match: what the fast path's `.scanResult` carries. The simulator may sample this value instead of frames; fed to
    /// the engine it gives the same outcome as the frames.
    public static func result(of frames: [ScanFrame], candidates: [KeyID], parameters p: ClavisParameters) -> ScanResult {
        var run = ScanRun(candidates: candidates)
        for f in frames {
            if let k = run.process(f, accepted: p.check(f.quality) == nil, parameters: p) {
                return ScanResult(matched: k, frames: run.frames, bestSimilarity: run.bestSimilarity, longestRun: run.longestRun)
            }
        }
        return ScanResult(matched: nil, frames: run.frames, bestSimilarity: run.bestSimilarity, longestRun: run.longestRun)
    }
}
