import Behavior
import ClavisRules
import Foundation
import RulesCore
import Stochastics

/// What is in front of the camera during one verification scan, and how (seed `004_8fa1e69c755a74b3.txt` §7
/// "Verification Process", "Quality Heuristics"; inventory `clavis.md` §5 "Frame model").
///
/// The object is either the genuine key of one candidate (`genuineIndex`, an index into the scan's candidate keys) or,
/// with `genuineIndex == nil`, an object that is an impostor (a look-alike, another mode's key, a used temporary key) for
/// every candidate. A genuine object is an impostor for every other candidate. `distinctiveness` is that object's d
/// (0 uniform … 1 rich 3D structure, §7 "Distinctiveness Warnings"): it lowers the impostor mean of every candidate it
/// is not the key of and, when low, the genuine mean of the candidate it is the key of.
public struct ScanConditions: Sendable, Hashable {
    /// The light where the person scans (`WhereaboutsProcess`): sets the quality-gate rejection and the genuine penalty.
    public var lighting: Lighting
    /// The object's distinctiveness d, 0…1.
    public var distinctiveness: Double
    /// The person shows the object from a viewpoint inside the bins enrolled (§7 "Track angle diversity"); false:
    /// the genuine mean loses `offViewpointPenalty`.
    public var viewpointEnrolled: Bool
    /// The person tapped a region of interest (§7 "ROI Selection": "Point cloud is filtered to ROI to improve matching
    /// accuracy"); the genuine mean gains `roiBonus`.
    public var roi: Bool
    /// The candidate (index into the scan's candidates) whose genuine key is in front of the camera; nil: none.
    public var genuineIndex: Int?

    public init(lighting: Lighting = .indoor, distinctiveness: Double = 0.7, viewpointEnrolled: Bool = true, roi: Bool = false,
                genuineIndex: Int? = 0) {
        self.lighting = lighting
        self.distinctiveness = distinctiveness
        self.viewpointEnrolled = viewpointEnrolled
        self.roi = roi
        self.genuineIndex = genuineIndex
    }
}

/// The frame-level scan model (issue 44): the person's side of a verification scan, frame by frame, as the inventory
/// (`clavis.md` §5 "Energy and the scan-reliability model") derives it from the seed's §7 (`004_8fa1e69c755a74b3.txt`
/// "Verification Process", "Match Decision", "Quality Heuristics", "3D Feature Matching"). Every number is an
/// assumption (the seed measures nothing), declared in `parameters` under `clavis.frames.*`.
///
/// Each processed frame (at `fps`) first passes the quality gate, rejected with probability q by lighting (§7 "Reject
/// frames when tracking is limited due to poor lighting"). Then, for each candidate key, its best-of-template cosine
/// similarity s = clip(m + σ·z, 0, 1) (§7 "Use best (highest) similarity score from template"), z an AR(1) latent of
/// correlation ρ frame to frame (consecutive ARFrames share pose and light):
/// - the genuine candidate: one latent, m = `genuineMean` − light penalty − off-viewpoint penalty − low-distinctiveness
///   penalty + ROI bonus, σ = `genuineSD` (bright, indoor) or `poorLightSD` (dim, dark);
/// - every other candidate: the best of `impostorTemplateVectors` (K_eff) template vectors, each with its own AR(1)
///   latent, m = `impostorBase` + `impostorSpan`·(1 − d), σ = `impostorSD`; s is the largest of the K clipped values.
///
/// Every latent moves on every frame, rejected or not (time passes), starting at a stationary N(0, 1) draw on the
/// scan's first frame: zₜ = ρ·zₜ₋₁ + √(1 − ρ²)·ε. A frame's random numbers are drawn in one fixed order — the gate's
/// uniform, then each candidate's normals in candidate order — by both paths: `frames(_:candidates:count:rng:)` (slow,
/// `ScanFrame`s for the engine's `.frame` input) and `sample(_:candidates:parameters:maxFrames:rng:)` (fast, the
/// engine's `.scanResult`), so the same stream gives both the same scan. Scan time (the camera seconds to charge) is
/// positioning (lognormal, median `positioningMedianSeconds`) plus frames ÷ `fps`.
public struct ClavisFrameModel: Sendable, Hashable {
    // MARK: Quality gate (§7 Quality Heuristics; inventory §5 "Suggested q")
    public var rejectBright: Double
    public var rejectIndoor: Double
    public var rejectDim: Double
    public var rejectDark: Double
    // MARK: Similarity (§7 3D Feature Matching; inventory §5)
    public var rho: Double
    public var genuineMean: Double
    public var genuineSD: Double
    public var poorLightSD: Double
    public var dimPenalty: Double
    public var darkPenalty: Double
    public var offViewpointPenalty: Double
    public var lowDistinctivenessPenalty: Double
    public var lowDistinctivenessBelow: Double
    public var roiBonus: Double
    public var impostorBase: Double
    public var impostorSpan: Double
    public var impostorSD: Double
    public var impostorTemplateVectors: Int
    // MARK: Time (§7 "processed at ~5-10 FPS"; inventory §5 "Scan time")
    public var fps: Double
    public var positioningMedianSeconds: Double
    public var positioningSigma: Double

    /// The inventory's figures (`parameters`' defaults).
    public init(rejectBright: Double = 0.05, rejectIndoor: Double = 0.10, rejectDim: Double = 0.35, rejectDark: Double = 0.90,
                rho: Double = 0.7, genuineMean: Double = 0.93, genuineSD: Double = 0.03, poorLightSD: Double = 0.04,
                dimPenalty: Double = 0.02, darkPenalty: Double = 0.04, offViewpointPenalty: Double = 0.03,
                lowDistinctivenessPenalty: Double = 0.04, lowDistinctivenessBelow: Double = 0.3, roiBonus: Double = 0.01,
                impostorBase: Double = 0.75, impostorSpan: Double = 0.15, impostorSD: Double = 0.04, impostorTemplateVectors: Int = 3,
                fps: Double = 8, positioningMedianSeconds: Double = 2, positioningSigma: Double = 0.5) {
        self.rejectBright = rejectBright
        self.rejectIndoor = rejectIndoor
        self.rejectDim = rejectDim
        self.rejectDark = rejectDark
        self.rho = rho
        self.genuineMean = genuineMean
        self.genuineSD = genuineSD
        self.poorLightSD = poorLightSD
        self.dimPenalty = dimPenalty
        self.darkPenalty = darkPenalty
        self.offViewpointPenalty = offViewpointPenalty
        self.lowDistinctivenessPenalty = lowDistinctivenessPenalty
        self.lowDistinctivenessBelow = lowDistinctivenessBelow
        self.roiBonus = roiBonus
        self.impostorBase = impostorBase
        self.impostorSpan = impostorSpan
        self.impostorSD = impostorSD
        self.impostorTemplateVectors = max(1, impostorTemplateVectors)
        self.fps = fps
        self.positioningMedianSeconds = positioningMedianSeconds
        self.positioningSigma = positioningSigma
    }

    /// The model of a world's behaviour values (read once per world).
    public init(values v: BehaviorValues) {
        self.init(rejectBright: v["clavis.frames.reject_bright"], rejectIndoor: v["clavis.frames.reject_indoor"],
                  rejectDim: v["clavis.frames.reject_dim"], rejectDark: v["clavis.frames.reject_dark"],
                  rho: v["clavis.frames.rho"], genuineMean: v["clavis.frames.genuine_mean"], genuineSD: v["clavis.frames.genuine_sd"],
                  poorLightSD: v["clavis.frames.poor_light_sd"], dimPenalty: v["clavis.frames.dim_penalty"],
                  darkPenalty: v["clavis.frames.dark_penalty"], offViewpointPenalty: v["clavis.frames.off_viewpoint_penalty"],
                  lowDistinctivenessPenalty: v["clavis.frames.low_distinctiveness_penalty"],
                  lowDistinctivenessBelow: v["clavis.frames.low_distinctiveness_below"], roiBonus: v["clavis.frames.roi_bonus"],
                  impostorBase: v["clavis.frames.impostor_base"], impostorSpan: v["clavis.frames.impostor_span"],
                  impostorSD: v["clavis.frames.impostor_sd"],
                  impostorTemplateVectors: Int(v["clavis.frames.impostor_template_vectors"].rounded()),
                  fps: v["clavis.frames.fps"], positioningMedianSeconds: v["clavis.frames.positioning_median_seconds"],
                  positioningSigma: v["clavis.frames.positioning_sigma"])
    }

    /// The inventory's figures.
    public static let defaults = ClavisFrameModel()

    // MARK: - The arithmetic (inventory §5)

    /// The quality gate's rejection probability q under `lighting`.
    public func rejection(_ lighting: Lighting) -> Double {
        switch lighting {
        case .bright: rejectBright
        case .indoor: rejectIndoor
        case .dim: rejectDim
        case .dark: rejectDark
        }
    }

    /// The genuine key's mean similarity m under `c`: the base, less the light, viewpoint and distinctiveness penalties,
    /// plus the ROI bonus. The distinctiveness penalty is full at d = 0 and fades linearly to none at
    /// `lowDistinctivenessBelow`.
    public func genuineMean(_ c: ScanConditions) -> Double {
        var m = genuineMean
        switch c.lighting {
        case .dim: m -= dimPenalty
        case .dark: m -= darkPenalty
        case .bright, .indoor: break
        }
        if !c.viewpointEnrolled { m -= offViewpointPenalty }
        if lowDistinctivenessBelow > 0, c.distinctiveness < lowDistinctivenessBelow {
            m -= lowDistinctivenessPenalty * (1 - max(0, c.distinctiveness) / lowDistinctivenessBelow)
        }
        if c.roi { m += roiBonus }
        return m
    }

    /// The genuine key's σ under `c`: `genuineSD` in good light, `poorLightSD` in dim or dark light.
    public func genuineSD(_ c: ScanConditions) -> Double {
        switch c.lighting {
        case .bright, .indoor: genuineSD
        case .dim, .dark: poorLightSD
        }
    }

    /// One impostor template vector's mean similarity, m = base + span·(1 − d).
    public func impostorMean(_ c: ScanConditions) -> Double { impostorBase + impostorSpan * (1 - c.distinctiveness) }

    /// A frame's quality when the gate rejects it: tracking limited by light in dim or dark light (§7 "Reject frames
    /// when tracking is limited due to poor lighting"), too few points otherwise ("Reject frames with insufficient
    /// points"). `ClavisParameters.check` rejects both under every catalogue-valid parameter set.
    public static func rejectedQuality(_ lighting: Lighting) -> FrameQuality {
        switch lighting {
        case .dim, .dark: FrameQuality(tracking: .limitedLight)
        case .bright, .indoor: FrameQuality(tracking: .normal, points: 0)
        }
    }

    /// A frame's quality when the gate accepts it: normal tracking, points and volume that pass
    /// `ClavisParameters.check` under every catalogue-valid parameter set (at most 5,000 points asked, a volume range
    /// that always holds 1,000 cm³), so both paths agree whatever the rules.
    public static let acceptedQuality = FrameQuality(tracking: .normal, points: 5000, volumeCm3: 1000)

    /// The positioning time before the first frame, seconds (lognormal, median `positioningMedianSeconds`, σ
    /// `positioningSigma`; 0 without a draw when the median is 0).
    public func positioningSeconds(rng: RandomStream) -> Double {
        guard positioningMedianSeconds > 0 else { return 0 }
        return rng.lognormal(mu: log(positioningMedianSeconds), sigma: positioningSigma)
    }

    /// The similarity of one latent value: clip(m + σ·z, 0, 1).
    @inline(__always)
    static func similarity(_ m: Double, _ sd: Double, _ z: Double) -> Double { min(1, max(0, m + sd * z)) }

    // MARK: - The slow path

    /// `count` processed frames of a scan of `candidates` under `c`, one every 1/`fps` s, for the engine's `.frame`
    /// input or `ScanRun.result(of:candidates:parameters:)`. A rejected frame has a rejected quality and no score; an
    /// accepted frame scores every candidate.
    public func frames(_ c: ScanConditions, candidates: [KeyID], count: Int, rng: RandomStream) -> [ScanFrame] {
        precondition(c.genuineIndex.map { candidates.indices.contains($0) } ?? true, "genuineIndex outside the candidates")
        let k = impostorTemplateVectors, n = candidates.count
        let q = rejection(c.lighting), rejected = Self.rejectedQuality(c.lighting)
        let gm = genuineMean(c), gsd = genuineSD(c), im = impostorMean(c)
        let innovation = (1 - rho * rho).squareRoot()
        var latent = [Double](repeating: 0, count: n * k)
        var out: [ScanFrame] = []
        out.reserveCapacity(max(0, count))
        for t in 0..<max(0, count) {
            let isRejected = rng.uniform() < q
            var best: [KeyID: Double] = [:]
            for i in 0..<n {
                let genuine = i == c.genuineIndex
                var s = 0.0
                for j in 0..<(genuine ? 1 : k) {
                    let e = rng.normal(mean: 0, standardDeviation: 1)
                    let z = t == 0 ? e : rho * latent[i * k + j] + innovation * e
                    latent[i * k + j] = z
                    s = max(s, genuine ? Self.similarity(gm, gsd, z) : Self.similarity(im, impostorSD, z))
                }
                if !isRejected { best[candidates[i]] = s }
            }
            out.append(isRejected ? ScanFrame(quality: rejected, best: [:]) : ScanFrame(quality: Self.acceptedQuality, best: best))
        }
        return out
    }
}
