import Behavior
import ClavisRules
import Foundation
import RulesCore
import Simulation
import Stochastics

extension ClavisAdapter {
    // MARK: - Scans as measurements

    /// What is in front of the camera: the key the scan is for, or a look-alike object (inventory §7).
    enum ScanObject: Int { case genuine = 0, lookAlike = 1 }

    /// The light the camera meets at `place` now (`Lighting.at`, by the person's sleep), or the dark when the person
    /// scans at bedtime or on waking with the lights off (`dark`).
    static func lighting(_ place: Place, _ life: borrowing PersonLife<Self>, at t: Instant, dark: Bool = false) -> Lighting {
        if dark && place == .home { return .dark }
        let p = life.person.phoneUse
        let hour = Double(life.zone.localDateTime(t).millisecondsIntoDay) / 3_600_000
        return Lighting.at(place, hour: hour, sleepStart: p.sleepStartHour, wake: max(0, p.sleepStartHour + p.sleepHours - 24))
    }

    /// A verification scan of `kind` as the person lives it (§6.3–§6.5, §7 Verification Process): the camera opens
    /// (`startScan`), frames come at the frame model's rate in this light for this object, and the person holds on for
    /// a lognormal patience (`clavis.scan.patience_seconds`); the engine gets the sampled whole scan (`.scanResult`,
    /// the fast path, which the tests show gives the frames' distributions) at the scan's end. Without a match the
    /// person tries again — in the dark perhaps with a lamp switched on (`clavis.scan.light_on_probability`) — or gives
    /// up (`clavis_scan_retry`), at most `clavis.scan.max_retries` times; a failed scan of the real key frustrates. Returns whether a key matched and when the last scan ended.
    static func scan(_ kind: ScanKind, _ object: ScanObject, distinctiveness d: Double, lighting light: Lighting,
                     _ life: inout PersonLife<Self>, at now: Instant) -> (matched: Bool, end: Instant) {
        let k = life.world.constants
        let rng = scanStream(&life)
        var t = now
        var attempt = 0
        var light = light
        // The scan buttons are on the app's main screen (§6.3–§6.5): the app is opened for them.
        life.send(.appOpened, at: now)
        life.engagement.record(.appOpened)
        while true {
            guard life.send(.startScan(kind), at: t) == .ok || life.engine.scan != nil else { return (false, t) }
            guard let candidates = life.engine.scan?.run.candidates, !candidates.isEmpty else { return (false, t) }
            let patience = rng.lognormal(mu: log(k.patienceSeconds), sigma: 0.5)
            let conditions = ScanConditions(lighting: light, distinctiveness: d, genuineIndex: object == .genuine ? 0 : nil)
            let s = k.frames.sample(conditions, candidates: candidates, parameters: life.engine.parameters,
                                    maxFrames: max(1, Int(patience * k.frames.fps)), rng: rng)
            let end = t + .milliseconds(Int64((s.seconds * 1000).rounded()))
            life.send(.scanResult(s.result), at: end)
            let matched = s.result.matched != nil
            life.summary.tally.recordScan(kind, light, object, matched: matched, falseAccept: s.falseAccept, seconds: s.seconds,
                                          day: life.dayIndex)
            life.trace(kind: "scan", detail: "\(kind.rawValue) \(object == .genuine ? "key" : "look-alike") in \(light) light: "
                       + (matched ? "matched" : "no match") + " after \(s.result.frames) frames, \(Int(s.seconds.rounded())) s", at: end)
            if matched { return (true, end) }
            if object == .genuine { life.engagement.record(.frustration(k.scanFrustration)) }
            life.offerDecision(.clavisRetry, moment: end.millisecondsSinceEpoch)
            guard attempt < k.maxRetries, life.choices.uniform() < k.retry else {
                life.decide(.clavisRetry, .giveUpScan, at: end)
                return (false, end)
            }
            life.decide(.clavisRetry, .retryScan, at: end)
            // In the dark, the person may switch a lamp on first.
            if light == .dark, life.choices.uniform() < k.lightOn { light = .dim }
            attempt += 1
            t = end + .seconds(2)
        }
    }

    /// The person's scan stream: its own, so scan outcomes (which a threshold sweep changes) shift none of the person's
    /// other draws.
    static func scanStream(_ life: inout PersonLife<Self>) -> RandomStream {
        if let s = life.state.scans { return s.rng }
        let s = RandomStream(key: life.world.key(life.id, "clavis-scans"))
        life.state.scans = ScanStream(rng: s)
        return s
    }

    /// Enrols an object as `role` of the person's mode (§7 Enrollment Process): the person turns it before the camera,
    /// a frame every `clavis.enrolment.seconds_per_frame` on average, a new viewpoint every two frames; each frame passes
    /// the quality gate of this light (`ClavisFrameModel.rejection`) or not; the engine completes it at 8 quality
    /// frames from 4 viewpoints (§7 Enrollment Completion). Returns the key and when the enrolment ended; nil when the
    /// light allowed no completion in 40 frames (the person gives up; `cancelEnrolment`).
    static func enrol(_ role: KeyRole, distinctiveness d: Double, lighting light: Lighting, _ life: inout PersonLife<Self>,
                      at now: Instant) -> (key: KeyID?, end: Instant) {
        guard let mode = life.state.mode ?? life.engine.modes.first?.id else { return (nil, now) }
        guard life.send(.startEnrolment(mode, role), at: now) == .ok || life.engine.enrolment != nil else { return (nil, now) }
        let k = life.world.constants
        let rng = scanStream(&life)
        let q = k.frames.rejection(light)
        var t = now
        for i in 0..<40 {
            t = t + .milliseconds(Int64((1000 * k.enrolmentSecondsPerFrame * rng.uniform(from: 0.5, to: 1.5)).rounded()))
            let quality = rng.uniform() < q ? FrameQuality(tracking: .limitedLight) : .good
            let view = (i / 2) % EnrolmentFrame.viewpointBins
            if case .keyEnrolled(let key) = life.send(.enrolmentFrame(EnrolmentFrame(quality: quality, viewpoint: view, distinctiveness: d)), at: t) {
                life.summary.tally.counts[.cameraMs] += Int((t - now).milliseconds)
                return (key, t)
            }
        }
        life.send(.cancelEnrolment, at: t)
        life.summary.tally.counts[.cameraMs] += Int((t - now).milliseconds)
        return (nil, t)
    }
}
