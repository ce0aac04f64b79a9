import Behavior
import ClavisLife
import ClavisRules
import Foundation
import HabitatTestSupport
import RulesCore
import Stochastics
import Testing

/// The frame-level scan model (issue 44; inventory `clavis.md` §5, seed `004_8fa1e69c755a74b3.txt` §7): its slow path
/// (frames, through `ScanRun` and the engine) and its fast path (a sampled `ScanResult`) are one stochastic process —
/// identical on the same stream, indistinguishable on different streams (two-proportion z and two-sample
/// Kolmogorov–Smirnov) — and its figures are the inventory's arithmetic.
@Suite("Clavis frame model")
struct ClavisFrameModelTests {
    // MARK: - Statistics

    /// Φ, the standard normal distribution function.
    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// Two-proportion z statistic (pooled); 0 when both shares are 0 or both 1.
    static func z(_ a: Int, _ n: Int, _ b: Int, _ m: Int) -> Double {
        let p = Double(a + b) / Double(n + m)
        guard p > 0, p < 1 else { return 0 }
        return (Double(a) / Double(n) - Double(b) / Double(m)) / (p * (1 - p) * (1 / Double(n) + 1 / Double(m))).squareRoot()
    }

    /// The two-sample Kolmogorov–Smirnov statistic D = sup |F₁ − F₂| of two integer samples.
    static func ks(_ a: [Int], _ b: [Int]) -> Double {
        let x = a.sorted(), y = b.sorted()
        var i = 0, j = 0, d = 0.0
        while i < x.count && j < y.count {
            let v = min(x[i], y[j])
            while i < x.count && x[i] == v { i += 1 }
            while j < y.count && y[j] == v { j += 1 }
            d = max(d, abs(Double(i) / Double(x.count) - Double(j) / Double(y.count)))
        }
        return d
    }

    /// The asymptotic critical D at level α for samples of n and m: c(α)·√((n + m)/(n·m)), c(α) = √(−ln(α/2)/2)
    /// (1.95 at α = 0.001).
    static func ksCritical(_ n: Int, _ m: Int, alpha: Double = 0.001) -> Double {
        (-log(alpha / 2) / 2).squareRoot() * (Double(n + m) / Double(n * m)).squareRoot()
    }

    /// The exact chance that a Bernoulli(p) sequence of `frames` trials holds a run of `needed` successes (the run-length
    /// chain: state = the current run, absorbing at `needed`).
    static func runChance(p: Double, needed: Int, frames: Int) -> Double {
        var state = [Double](repeating: 0, count: needed)
        state[0] = 1
        var done = 0.0
        for _ in 0..<frames {
            var next = [Double](repeating: 0, count: needed)
            for r in 0..<needed {
                next[0] += state[r] * (1 - p)
                if r + 1 == needed { done += state[r] * p } else { next[r + 1] += state[r] * p }
            }
            state = next
        }
        return done
    }

    // MARK: - Running scans

    /// The outcomes of many scans: matched key (nil: gave up) and frames to the outcome.
    struct Outcomes {
        var matched: [KeyID?] = []
        var frames: [Int] = []
        var n: Int { frames.count }
        var matches: Int { matched.filter { $0 != nil }.count }
        func matches(_ k: KeyID) -> Int { matched.filter { $0 == k }.count }
        var share: Double { Double(matches) / Double(n) }
        var meanFrames: Double { Double(frames.reduce(0, +)) / Double(n) }
        mutating func add(_ r: ScanResult) {
            matched.append(r.matched)
            frames.append(r.frames)
        }
    }

    /// One condition of the two-sample test.
    struct Condition: CustomStringConvertible {
        var name: String
        var conditions: ScanConditions
        var candidates: [KeyID]
        var maxFrames: Int
        var description: String { name }
    }

    static let conditions: [Condition] = [
        Condition(name: "genuine bright", conditions: ScanConditions(lighting: .bright), candidates: [1], maxFrames: 80),
        Condition(name: "genuine dim", conditions: ScanConditions(lighting: .dim), candidates: [1], maxFrames: 80),
        Condition(name: "genuine dark", conditions: ScanConditions(lighting: .dark), candidates: [1], maxFrames: 80),
        Condition(name: "impostor d=0.5 indoor", conditions: ScanConditions(lighting: .indoor, distinctiveness: 0.5, genuineIndex: nil),
                  candidates: [1], maxFrames: 80),
        Condition(name: "temporary, 2 candidates, off-viewpoint, the second genuine",
                  conditions: ScanConditions(lighting: .indoor, distinctiveness: 0.2, viewpointEnrolled: false, genuineIndex: 1),
                  candidates: [2, 3], maxFrames: 40),
    ]

    static func slow(_ c: Condition, model: ClavisFrameModel = .defaults, parameters p: ClavisParameters = .defaults,
                     scans: Int, seed: UInt64) -> Outcomes {
        let rng = RandomStream(seed: seed)
        var o = Outcomes()
        for _ in 0..<scans {
            let f = model.frames(c.conditions, candidates: c.candidates, count: c.maxFrames, rng: rng)
            o.add(ScanRun.result(of: f, candidates: c.candidates, parameters: p))
        }
        return o
    }

    static func fast(_ c: Condition, model: ClavisFrameModel = .defaults, parameters p: ClavisParameters = .defaults,
                     scans: Int, seed: UInt64) -> Outcomes {
        let rng = RandomStream(seed: seed)
        var o = Outcomes()
        for _ in 0..<scans {
            o.add(model.sample(c.conditions, candidates: c.candidates, parameters: p, maxFrames: c.maxFrames, rng: rng).result)
        }
        return o
    }

    // MARK: - The two paths

    /// The issue's requirement: per condition, 4,000 scans of frames through `ScanRun` and 4,000 sampled, on different
    /// streams: the match shares agree (|z| < 4) and the frames to the outcome are one distribution (KS, p ≥ 0.001).
    @Test("slow and fast paths agree on different streams: match share (|z| < 4) and frames to outcome (KS at 0.001)",
          arguments: conditions.indices)
    func twoSample(_ index: Int) {
        let c = Self.conditions[index], n = 4000
        let a = Self.slow(c, scans: n, seed: 1000 + UInt64(index)), b = Self.fast(c, scans: n, seed: 2000 + UInt64(index))
        let z = Self.z(a.matches, n, b.matches, n)
        let d = Self.ks(a.frames, b.frames), critical = Self.ksCritical(n, n)
        print("[frames] \(c.name): slow share \(a.share) mean frames \(a.meanFrames); fast share \(b.share) mean frames \(b.meanFrames); z \(z); KS D \(d) (critical \(critical))")
        #expect(abs(z) < 4, "\(c.name): match shares \(a.share) against \(b.share), z = \(z)")
        #expect(d < critical, "\(c.name): KS D = \(d) ≥ \(critical)")
        for k in c.candidates {
            let zk = Self.z(a.matches(k), n, b.matches(k), n)
            #expect(abs(zk) < 4, "\(c.name): key \(k) matched \(a.matches(k)) against \(b.matches(k)), z = \(zk)")
        }
    }

    /// The same test can fail: ρ = 0 against ρ = 0.9 (genuine, dim light) is told apart by the same KS test.
    @Test("the KS test tells ρ = 0 from ρ = 0.9 (genuine, dim)")
    func ksDetectsADifferentModel() {
        let c = Self.conditions[1], n = 4000
        let a = Self.fast(c, model: ClavisFrameModel(rho: 0), scans: n, seed: 11)
        let b = Self.fast(c, model: ClavisFrameModel(rho: 0.9), scans: n, seed: 12)
        let d = Self.ks(a.frames, b.frames), critical = Self.ksCritical(n, n)
        print("[frames] sanity ρ 0 vs 0.9, genuine dim: shares \(a.share) / \(b.share), mean frames \(a.meanFrames) / \(b.meanFrames), KS D \(d) (critical \(critical))")
        #expect(d > critical)
    }

    /// On the same stream the two paths draw the same numbers in the same order, so they give the same scan exactly —
    /// under the default rules and under changed ones (threshold, run length, a rejected frame skipped).
    @Test("on the same stream the slow path through ScanRun and the fast path give the same ScanResult")
    func sameStreamSameScan() {
        let rules: [ClavisParameters] = [.defaults, {
            var v = ParameterValues(defaultsOf: ClavisParameters.catalogue)
            v["verify.threshold"] = .number(0.88)
            v["verify.consecutive_frames"] = .int(2)
            v["verify.rejected_frame_breaks_run"] = .bool(false)
            return ClavisParameters(values: v)
        }()]
        let models = [ClavisFrameModel.defaults, ClavisFrameModel(rho: 0, impostorTemplateVectors: 1)]
        for (i, c) in Self.conditions.enumerated() {
            for p in rules {
                for model in models {
                    let rng = RandomStream(seed: 77 + UInt64(i))
                    for _ in 0..<300 {
                        let copy = rng.copy()
                        let f = model.frames(c.conditions, candidates: c.candidates, count: c.maxFrames, rng: copy)
                        #expect(f.allSatisfy { ($0.best.isEmpty) == (p.check($0.quality) != nil) })
                        let sampled = model.sample(c.conditions, candidates: c.candidates, parameters: p, maxFrames: c.maxFrames, rng: rng)
                        let expected = ScanRun.result(of: f, candidates: c.candidates, parameters: p)
                        #expect(sampled.result == expected, "\(c.name)")
                        let genuine = c.conditions.genuineIndex.map { c.candidates[$0] }
                        #expect(sampled.genuineMatch == (expected.matched != nil && expected.matched == genuine))
                        #expect(sampled.falseAccept == (expected.matched != nil && expected.matched != genuine))
                        #expect(abs(sampled.seconds - (sampled.positioningSeconds + Double(expected.frames) / model.fps)) < 1e-12)
                    }
                }
            }
        }
    }

    /// At least one condition through the engine itself: lock scans of the main key in dim light fed frame by frame at
    /// 8 FPS (`.startScan(.lock)`, `.frame`, `.cancelScan` when the person gives up; an unlock of three good frames after
    /// each lock), against the fast path on another stream; and each engine scan equals `ScanRun` on its frames.
    @Test("the engine fed the slow path's frames agrees with the fast path (genuine, dim light)")
    func throughTheEngine() {
        let c = Self.conditions[1], n = 4000
        var h = EngineHarness<ClavisEngine>(parameters: .defaults, zone: Self.london, day0: LocalDate(year: 2026, month: 3, day: 2)!, hour: 8)
        let main = Self.onboard(&h)
        var engine = h.engine, out = h.out, t = h.now + .seconds(10)
        let frameGap = TimeSpan.milliseconds(125)
        let rng = RandomStream(seed: 3001)
        var a = Outcomes()
        for _ in 0..<n {
            let frames = ClavisFrameModel.defaults.frames(c.conditions, candidates: [main], count: c.maxFrames, rng: rng)
            engine.handle(.startScan(.lock), at: t, into: &out)
            #expect(out.decision == .ok)
            var result = ScanResult(matched: nil, frames: frames.count)
            for (i, f) in frames.enumerated() {
                t = t + frameGap
                engine.handle(.frame(f), at: t, into: &out)
                if out.decision == .locked(cycle: engine.cycles) { result = ScanResult(matched: main, frames: i + 1); break }
                guard case .scanning = out.decision else { Issue.record("unexpected \(out.decision)"); return }
            }
            let expected = ScanRun.result(of: frames, candidates: [main], parameters: .defaults)
            #expect(result.matched == expected.matched && result.frames == expected.frames)
            a.add(result)
            if result.matched == nil {
                engine.handle(.cancelScan, at: t, into: &out)
                #expect(out.decision == .scanAbandoned)
            } else {
                t = t + .seconds(5)
                engine.handle(.startScan(.unlock), at: t, into: &out)
                for _ in 0..<3 {
                    t = t + frameGap
                    engine.handle(.frame(ScanFrame(quality: .good, best: [main: 0.95])), at: t, into: &out)
                }
                #expect(out.decision == .unlocked(cycle: engine.cycles))
            }
            t = t + .seconds(30)
        }
        let b = Self.fast(c, candidates: [main], scans: n, seed: 4001)
        let z = Self.z(a.matches, n, b.matches, n), d = Self.ks(a.frames, b.frames), critical = Self.ksCritical(n, n)
        print("[frames] engine, genuine dim lock scans: engine share \(a.share) mean frames \(a.meanFrames); fast share \(b.share) mean frames \(b.meanFrames); z \(z); KS D \(d) (critical \(critical))")
        #expect(abs(z) < 4)
        #expect(d < critical)
    }

    static func fast(_ c: Condition, candidates: [KeyID], scans: Int, seed: UInt64) -> Outcomes {
        var c = c
        c.candidates = candidates
        return fast(c, scans: scans, seed: seed)
    }

    static let london = try! ZoneCalendar(identifier: "Europe/London", startingOn: LocalDate(year: 2026, month: 1, day: 1)!, days: 400)

    /// Onboarding the spec's way (as `ClavisRulesTests`' harness does): a mode, its main key from 8 frames over 4
    /// viewpoints, a validated Focus; returns the main key.
    static func onboard(_ h: inout EngineHarness<ClavisEngine>) -> KeyID {
        h.send(.appOpened, at: h.now)
        h.send(.deviceChecked(arSupported: true), at: h.now)
        h.send(.cameraPermission(granted: true), at: h.now)
        h.send(.onboardingNext, at: h.now)
        guard case .modeCreated(let m) = h.send(.createMode(apps: 5, temporaryApps: 2), at: h.now).decision else { fatalError() }
        h.send(.onboardingNext, at: h.now)
        h.send(.onboardingNext, at: h.now)
        h.send(.startEnrolment(m, .main), at: h.now)
        var key: KeyID?
        for i in 0..<8 where key == nil {
            if case .keyEnrolled(let k) = h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: i % 4)), at: h.now + .milliseconds(250)).decision { key = k }
        }
        h.send(.onboardingNext, at: h.now)
        h.send(.onboardingNext, at: h.now)
        h.send(.focusConfigured(ok: true), at: h.now)
        h.send(.onboardingNext, at: h.now)
        h.send(.onboardingNext, at: h.now)
        return key!
    }

    // MARK: - The inventory's arithmetic (§5 "What the rule implies")

    /// With independent frames (ρ = 0) the frames to 3 in a row average 1/p + 1/p² + 1/p³, p = (1 − q)·P(s ≥ 0.90):
    /// good (bright) light p ≈ 0.80 → 4.8 frames; dim p ≈ 0.39 → 26 frames (the inventory's figures).
    @Test("ρ = 0: mean frames to a match is 1/p + 1/p² + 1/p³ (bright and dim light)", arguments: [Lighting.bright, .dim])
    func meanFramesIndependent(_ lighting: Lighting) {
        let model = ClavisFrameModel(rho: 0), c = ScanConditions(lighting: lighting)
        let p = (1 - model.rejection(lighting)) * Self.phi((model.genuineMean(c) - 0.90) / model.genuineSD(c))
        let expected = 1 / p + 1 / (p * p) + 1 / (p * p * p)
        let rng = RandomStream(seed: 5)
        let n = 20_000
        var sum = 0.0, sumSq = 0.0, matched = 0
        for _ in 0..<n {
            let s = model.sample(c, candidates: [1], parameters: .defaults, maxFrames: 1_000_000, rng: rng)
            if s.result.matched != nil { matched += 1 }
            let f = Double(s.result.frames)
            sum += f
            sumSq += f * f
        }
        let mean = sum / Double(n), se = ((sumSq / Double(n) - mean * mean) / Double(n)).squareRoot()
        print("[frames] ρ 0, genuine \(lighting): p \(p), expected mean frames \(expected), measured \(mean) ± \(se)")
        #expect(matched == n)
        #expect(abs(mean - expected) < 4 * se)
        #expect(abs(mean / expected - 1) < 0.03)
    }

    /// In the dark (q = 0.90, m = 0.89) a genuine key almost never matches within 80 frames (10 s): FRR is real for a
    /// Sleep mode at night.
    @Test("dark light: a genuine key almost never matches within 80 frames")
    func darkAlmostNever() {
        let c = Self.conditions[2]
        let o = Self.fast(c, scans: 20_000, seed: 9)
        let independent = Self.fast(c, model: ClavisFrameModel(rho: 0), scans: 20_000, seed: 10)
        print("[frames] genuine dark, 80 frames: match share \(o.share) (ρ 0.7), \(independent.share) (ρ 0)")
        #expect(o.share < 0.02)
        #expect(independent.share < 0.02)
    }

    /// An impostor (d = 0.5, indoor, K_eff = 3) with ρ = 0 matches within 80 frames as often as the exact run-length
    /// chain with p = (1 − q)·(1 − (1 − P(s ≥ 0.90))³) says.
    @Test("impostor d = 0.5, ρ = 0: 80-frame match share is the exact run-length chain's")
    func impostorChain() {
        let model = ClavisFrameModel(rho: 0), c = Self.conditions[3]
        let one = 1 - Self.phi((0.90 - model.impostorMean(c.conditions)) / model.impostorSD)
        let p = (1 - model.rejection(.indoor)) * (1 - pow(1 - one, Double(model.impostorTemplateVectors)))
        let exact = Self.runChance(p: p, needed: 3, frames: 80)
        let n = 40_000
        let o = Self.fast(c, model: model, scans: n, seed: 13)
        let se = (exact * (1 - exact) / Double(n)).squareRoot()
        print("[frames] impostor d 0.5 indoor ρ 0: p \(p), exact 80-frame chance \(exact), measured \(o.share) ± \(se)")
        #expect(abs(o.share - exact) < 4 * se)
    }

    /// Correlated frames weaken "3 consecutive frames": ρ = 0.7 (the default) raises the impostor's 80-frame match
    /// share above ρ = 0's.
    @Test("impostor d = 0.5: ρ = 0.7 matches more often than ρ = 0 within 80 frames")
    func correlationRaisesFalseAccepts() {
        let c = Self.conditions[3], n = 40_000
        let independent = Self.fast(c, model: ClavisFrameModel(rho: 0), scans: n, seed: 14)
        let correlated = Self.fast(c, model: ClavisFrameModel(rho: 0.7), scans: n, seed: 15)
        let z = Self.z(correlated.matches, n, independent.matches, n)
        print("[frames] impostor d 0.5 indoor, 80 frames: ρ 0 share \(independent.share), ρ 0.7 share \(correlated.share), z \(z)")
        #expect(z > 4)
    }

    // MARK: - Parameters and time

    @Test("the catalogue's defaults are the model's defaults; every key is clavis.frames.* and an assumption")
    func parameters() {
        let keys = ClavisFrameModel.parameters.map(\.keyPath)
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0.hasPrefix("clavis.frames.") })
        #expect(ClavisFrameModel.parameters.allSatisfy { if case .assumption = $0.source { true } else { false } })
        #expect(ClavisFrameModel(values: BehaviorValues(catalogue: ClavisFrameModel.parameters)) == .defaults)
        let changed = ClavisFrameModel(values: BehaviorValues(["clavis.frames.rho": 0.2, "clavis.frames.impostor_template_vectors": 5],
                                                              catalogue: ClavisFrameModel.parameters))
        #expect(changed.rho == 0.2 && changed.impostorTemplateVectors == 5)
    }

    @Test("the genuine mean: light, viewpoint, distinctiveness and ROI; the impostor mean 0.75 + 0.15·(1 − d)")
    func means() {
        let m = ClavisFrameModel.defaults
        #expect(abs(m.genuineMean(ScanConditions(lighting: .bright)) - 0.93) < 1e-12)
        #expect(abs(m.genuineMean(ScanConditions(lighting: .dim)) - 0.91) < 1e-12)
        #expect(abs(m.genuineMean(ScanConditions(lighting: .dark)) - 0.89) < 1e-12)
        #expect(abs(m.genuineMean(ScanConditions(lighting: .indoor, distinctiveness: 0, viewpointEnrolled: false, roi: true)) - 0.87) < 1e-12)
        #expect(abs(m.genuineMean(ScanConditions(distinctiveness: 0.15)) - 0.91) < 1e-12)
        #expect(abs(m.impostorMean(ScanConditions(distinctiveness: 0.5)) - 0.825) < 1e-12)
        #expect(m.genuineSD(ScanConditions(lighting: .indoor)) == 0.03 && m.genuineSD(ScanConditions(lighting: .dark)) == 0.04)
    }

    /// Scan time = positioning (lognormal, median 2 s) + frames ÷ 8: the positioning median is 2 s.
    @Test("scan seconds: positioning median 2 s plus frames ÷ 8")
    func scanSeconds() {
        let rng = RandomStream(seed: 21)
        let c = Self.conditions[0]
        var positioning: [Double] = []
        for _ in 0..<4000 {
            let s = ClavisFrameModel.defaults.sample(c.conditions, candidates: c.candidates, parameters: .defaults, maxFrames: 80, rng: rng)
            positioning.append(s.positioningSeconds)
            #expect(s.cameraSeconds == s.positioningSeconds + Double(s.result.frames) / 8)
        }
        let median = positioning.sorted()[positioning.count / 2]
        print("[frames] positioning median \(median) s")
        #expect(abs(median - 2) < 0.1)
        let none = ClavisFrameModel(positioningMedianSeconds: 0)
        #expect(none.sample(c.conditions, candidates: c.candidates, parameters: .defaults, maxFrames: 80, rng: rng).positioningSeconds == 0)
    }
}
