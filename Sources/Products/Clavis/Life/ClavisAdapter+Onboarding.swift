import Behavior
import ClavisRules
import Foundation
import RulesCore
import Simulation

extension ClavisAdapter {
    // MARK: - Onboarding (§6.1, in the spec's order)

    /// Onboarding as the person lives it (§6.1 Onboarding Flow; the engine's order, `onboarding.apps_before_key`):
    /// the ARKit check; welcome; the camera asked (step 0, the shared permission step, `onboarding.completion.permission`;
    /// assumption: asked up front, the spec names no moment); the first mode with the person's target apps (step 1,
    /// `onboarding.completion.configuration`); the main key enrolled — an object at home, so a person installing
    /// elsewhere goes on at their next arrival home (§1) — (step 2, `clavis.onboarding.enrol_completion`); an optional
    /// temporary key (`clavis.temporary_key_share`); the Focus set up through Shortcuts (step 3,
    /// `clavis.onboarding.focus_setup_success`, §10 Risk 3); done. Every draw
    /// of the set-up is made at install whatever the path, so arms stay paired. A person who stalls keeps the app with
    /// nothing locked.
    public static func onboard(_ life: inout PersonLife<Self>, at t: Instant) {
        let k = life.world.constants
        // The person's objects and habits, drawn once.
        life.state.distinctiveness = life.features.beta(6 * k.distinctivenessMean, 6 * (1 - k.distinctivenessMean))
        life.state.temporaryDistinctiveness = life.features.beta(6 * k.distinctivenessMean, 6 * (1 - k.distinctivenessMean))
        life.state.lockLeaving = propensity(k.lockLeaving, &life)
        life.state.lockBedtime = propensity(k.lockBedtime, &life)
        let wantsTemporary = life.features.uniform() < k.temporaryKeyShare
        life.state.temporaryCarried = life.features.uniform() < k.temporaryCarried
        life.state.wantsTemporary = wantsTemporary
        _ = scanStream(&life)

        life.send(.appOpened, at: t)
        life.engagement.record(.appOpened)
        // The ARKit support check at launch (§7 Error Handling): every iPhone Habitat's people carry (SE 3rd generation,
        // 12–15) supports world tracking (assumption: no older device in the population).
        life.send(.deviceChecked(arSupported: true), at: t)
        life.send(.onboardingNext, at: t)   // welcome
        // The camera asked first (step 0, the shared permission step): refused, Clavis can neither enrol nor scan (§7
        // "Handle camera permission denials gracefully"); the person is left dormant.
        guard life.grantsPermission(at: t, denied: { $0.send(.cameraPermission(granted: false), at: t) }) else {
            return stall("refused the camera", &life, at: t)
        }
        life.send(.cameraPermission(granted: true), at: t)
        let apps = life.person.apps.indices.map { AppID(UInt16($0 + 1)) }
        let configures = life.world.onboarding.completesStep(.configuration, techComfort: life.person.techComfort, rng: life.onboarding)
        guard life.onboardingStep(1, completes: configures, at: t) else { return stall("stalled before creating a mode", &life, at: t) }
        guard case .modeCreated(let mode) = life.send(.createMode(apps: apps.count, temporaryApps: apps.count), at: t + .seconds(30)) else {
            return stall("mode refused", &life, at: t)
        }
        life.state.mode = mode
        life.state.apps = apps
        life.send(.onboardingNext, at: t + .seconds(30))   // create mode
        if life.engine.onboardingStep == .selectApps { life.send(.onboardingNext, at: t + .seconds(30)) }
        scheduleBedtime(&life, at: t)
        guard life.mind(WhereaboutsProcess.self).place == .home else {
            life.state.enrolPending = true
            life.trace(kind: "onboarding", detail: "away from home: the key is enrolled on arriving home", at: t)
            return
        }
        enrolAndFinish(&life, at: t + .seconds(40))
    }

    /// A per-person propensity of mean `mean` (beta, concentration 4).
    static func propensity(_ mean: Double, _ life: inout PersonLife<Self>) -> Double {
        guard mean > 0, mean < 1 else { return mean }
        return life.features.beta(4 * mean, 4 * (1 - mean))
    }

    /// The rest of onboarding, at home: the main key (its effort frustrates), the optional temporary key, the Focus.
    static func enrolAndFinish(_ life: inout PersonLife<Self>, at start: Instant) {
        let k = life.world.constants
        life.state.enrolPending = false
        let light = lighting(.home, life, at: start)
        let finishes = life.onboarding.uniform() < k.enrolCompletion
        guard life.onboardingStep(2, completes: finishes, at: start) else {
            // Started and put down: a few frames' effort.
            if life.send(.startEnrolment(life.state.mode ?? 1, .main), at: start) == .ok { life.send(.cancelEnrolment, at: start + .seconds(15)) }
            life.engagement.record(.frustration(k.enrolmentFrustration))
            return stall("stalled enrolling the main key", &life, at: start)
        }
        life.engagement.record(.frustration(k.enrolmentFrustration))
        let (key, end) = enrol(.main, distinctiveness: life.state.distinctiveness, lighting: light, &life, at: start)
        guard let key else { return stall("the light let no enrolment complete", &life, at: end) }
        life.state.mainKey = key
        var t = end + .seconds(5)
        life.send(.onboardingNext, at: t)   // enrol main key
        if life.engine.onboardingStep == .selectApps { life.send(.onboardingNext, at: t) }
        if life.state.wantsTemporary {
            let (temp, tEnd) = enrol(.temporary, distinctiveness: life.state.temporaryDistinctiveness, lighting: light, &life, at: t)
            life.state.temporaryKey = temp
            t = tEnd + .seconds(5)
        }
        life.send(.onboardingNext, at: t)   // temporary keys
        let ok = life.onboarding.uniform() < k.focusSetup
        life.send(.focusConfigured(ok: ok), at: t + .seconds(60))
        guard life.onboardingStep(3, completes: ok, at: t + .seconds(60)) else { return stall("stalled setting the Focus up", &life, at: t) }
        life.send(.onboardingNext, at: t + .seconds(60))   // configure Focus
        life.send(.onboardingNext, at: t + .seconds(65))   // complete
        life.beBusy(until: t + .seconds(65), with: "setting Clavis up")
        let d = (life.state.distinctiveness * 100).rounded() / 100
        let temporary = life.state.temporaryKey == nil ? "" : ", a temporary key" + (life.state.temporaryCarried ? " carried" : " at home")
        life.trace(kind: "onboarding", detail: "done: key d = \(d)\(temporary)", at: t)
    }

    static func stall(_ why: String, _ life: inout PersonLife<Self>, at t: Instant) {
        life.trace(kind: "onboarding", detail: why, at: t)
        life.summary.tally.counts.flag(.onboardingStalled)
    }

    /// Set up again after "Delete my key" (the person knows the app now: no onboarding decisions, every step done), at
    /// home with the same objects.
    static func setUpAgain(_ life: inout PersonLife<Self>, at t: Instant) {
        life.state.enrolPending = false
        life.send(.appOpened, at: t)
        life.send(.onboardingNext, at: t)
        guard case .modeCreated(let mode) = life.send(.createMode(apps: life.person.apps.count, temporaryApps: life.person.apps.count), at: t) else { return }
        life.state.mode = mode
        life.state.apps = life.person.apps.indices.map { AppID(UInt16($0 + 1)) }
        while let s = life.engine.onboardingStep, s == .createMode || s == .selectApps { life.send(.onboardingNext, at: t) }
        let (key, end) = enrol(.main, distinctiveness: life.state.distinctiveness, lighting: lighting(.home, life, at: t), &life, at: t)
        guard let key else { return }
        life.state.mainKey = key
        while let s = life.engine.onboardingStep, s != .configureFocus { if life.send(.onboardingNext, at: end) .isRefusal { return } }
        life.send(.focusConfigured(ok: true), at: end)
        while life.engine.onboardingStep != nil { if life.send(.onboardingNext, at: end).isRefusal { return } }
        life.beBusy(until: end, with: "setting Clavis up again")
    }
}
