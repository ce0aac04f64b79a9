import Behavior
import ClavisRules
import RulesCore
import Stochastics

/// A whole verification scan sampled by `ClavisFrameModel.sample(_:candidates:parameters:maxFrames:rng:)` (the fast
/// path; seed `004_8fa1e69c755a74b3.txt` §7 "Match Decision", inventory `clavis.md` §5): the engine's `.scanResult`
/// value, the scan's time, and the ground truth the engine does not know.
public struct SampledScan: Sendable, Hashable {
    /// What the engine's `.scanResult` input carries (`matched` is one of the candidates, or nil: the person gave up
    /// after `maxFrames` frames).
    public var result: ScanResult
    /// The positioning time before the first frame, seconds.
    public var positioningSeconds: Double
    /// Positioning plus frames ÷ fps: how long the AR session ran.
    public var seconds: Double
    /// The key that matched is the one in front of the camera.
    public var genuineMatch: Bool
    /// A key matched that was not in front of the camera (a false accept).
    public var falseAccept: Bool

    public init(result: ScanResult, positioningSeconds: Double, seconds: Double, genuineMatch: Bool, falseAccept: Bool) {
        self.result = result
        self.positioningSeconds = positioningSeconds
        self.seconds = seconds
        self.genuineMatch = genuineMatch
        self.falseAccept = falseAccept
    }

    /// The camera seconds to charge (`camera_second`, inventory §5 "Energy"): the whole AR session.
    public var cameraSeconds: Double { seconds }
}

extension ClavisFrameModel {
    /// The fast path: the scan `frames(_:candidates:count:rng:)` would give, fed to `ScanRun` under `p` (threshold,
    /// consecutive frames, a rejected frame breaking every run), stopped at the first match or after `maxFrames`
    /// frames (the person's patience), without building frames. The same random numbers in the same order as the slow
    /// path (a frame's gate uniform, then each candidate's normals), then the positioning time's normal; no heap
    /// allocation per frame (the latents and runs live in one temporary buffer each per scan).
    public func sample(_ c: ScanConditions, candidates: [KeyID], parameters p: ClavisParameters, maxFrames: Int,
                       rng: RandomStream) -> SampledScan {
        precondition(c.genuineIndex.map { candidates.indices.contains($0) } ?? true, "genuineIndex outside the candidates")
        let k = impostorTemplateVectors, n = candidates.count
        let q = rejection(c.lighting)
        let gm = genuineMean(c), gsd = genuineSD(c), im = impostorMean(c), isd = impostorSD
        let r = rho, innovation = (1 - rho * rho).squareRoot()
        let genuineIndex = c.genuineIndex ?? -1
        let threshold = p.threshold, needed = p.consecutiveFrames, breaks = p.rejectedFrameBreaksRun
        let result = withUnsafeTemporaryAllocation(of: Double.self, capacity: max(1, n * k)) { latent -> ScanResult in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, n)) { runs -> ScanResult in
                latent.initialize(repeating: 0)
                runs.initialize(repeating: 0)
                var frames = 0, longest = 0, best = 0.0
                while frames < maxFrames {
                    let first = frames == 0
                    frames += 1
                    let rejected = rng.uniform() < q
                    var matched = -1
                    for i in 0..<n {
                        let genuine = i == genuineIndex
                        var s = 0.0
                        for j in 0..<(genuine ? 1 : k) {
                            let e = rng.normal(mean: 0, standardDeviation: 1)
                            let z = first ? e : r * latent[i * k + j] + innovation * e
                            latent[i * k + j] = z
                            s = max(s, genuine ? Self.similarity(gm, gsd, z) : Self.similarity(im, isd, z))
                        }
                        if rejected { continue }
                        best = max(best, s)
                        runs[i] = s >= threshold ? runs[i] + 1 : 0
                        longest = max(longest, runs[i])
                        if matched < 0 && runs[i] >= needed { matched = i }
                    }
                    if rejected && breaks { for i in 0..<n { runs[i] = 0 } }
                    if matched >= 0 {
                        return ScanResult(matched: candidates[matched], frames: frames, bestSimilarity: best, longestRun: longest)
                    }
                }
                return ScanResult(matched: nil, frames: frames, bestSimilarity: best, longestRun: longest)
            }
        }
        let positioning = positioningSeconds(rng: rng)
        let genuineKey = c.genuineIndex.map { candidates[$0] }
        return SampledScan(result: result, positioningSeconds: positioning, seconds: positioning + Double(result.frames) / fps,
                           genuineMatch: result.matched != nil && result.matched == genuineKey,
                           falseAccept: result.matched != nil && result.matched != genuineKey)
    }

    /// The seconds of a scan of `frames` processed frames after `positioningSeconds` of positioning.
    public func seconds(frames: Int, positioningSeconds: Double) -> Double { positioningSeconds + Double(frames) / fps }
}
