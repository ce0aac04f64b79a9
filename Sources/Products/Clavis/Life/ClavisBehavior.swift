import Behavior
import Foundation
import RulesCore
import Simulation

/// Clavis's own behaviour parameters (issue 44; declared beside its adapter, issue 42): the object a person makes their
/// key, the set-up's effort, when people lock and unlock (a habit at the day's edges), how they scan, and what they do
/// when an urge meets the lock — the options the spec leaves open (seed `004_8fa1e69c755a74b3.txt` §1, §10 Risk 2
/// "User Bypass"; inventory `clavis.md` §7). The spec measured none of them: each is an assumption, said as such. The
/// frame model's parameters are `ClavisFrameModel.parameters`.
public enum ClavisBehavior {
    public static let groups: [BehaviorParameterGroup] = [
        BehaviorParameterGroup(after: "shield.walk_away_share", locked),
        BehaviorParameterGroup(after: "dormant.uninstall_share", setUp + habit + scanning + ClavisFrameModel.parameters),
    ]

    /// An urge meeting the lock.
    static let locked: [RuleParameter] = [
        .behavior("clavis.focus_leak_probability", 0.05, 0...1,
          "chance an urge for a locked app gets through anyway, the app opened from Search or the App Library (a Focus hides Home Screen pages and filters notifications; it does not block apps)",
          .assumption("inventory clavis.md §6 gap 8: no public API lets a Focus block an app")),
        .behavior("clavis.unlock_at_home_constant", -0.5, -20...20,
          "utility constant of unlocking with the main key on an urge while at home, the key a few steps away (a scan)",
          .assumption("§1 \"To unlock, user must physically return to that mode's main key object\": at home the friction is the scan alone")),
        .behavior("clavis.unlock_friction_seconds", 20, 0...600, "seconds of fetching the key object at home and scanning it",
          .assumption("a few steps and a scan (inventory §5: a verification scan ~5 s)")),
        .behavior("clavis.go_home_constant", -1.5, -20...20,
          "utility constant of going home for the key on an urge while away (its friction is the trip there and back)",
          .assumption("the friction the product is built on (§1)")),
        .behavior("clavis.travel_minutes", 25, 1...240, "median minutes of a trip home from work or from out (lognormal, σ 0.5)",
          .assumption("a commute")),
        .behavior("clavis.temporary_constant", -0.5, -20...20,
          "utility constant of a temporary unlock with a carried temporary key (one per lock cycle, §6.5)",
          .assumption("the spec's sanctioned way through; its scarcity (once per cycle) makes people keep it")),
        .behavior("clavis.temporary_friction_seconds", 15, 0...600, "seconds of taking out the temporary key and scanning it",
          .assumption("a scan")),
        .behavior("clavis.temporary_end_early_probability", 0.3, 0...1,
          "chance a person ends a temporary unlock early when the session it opened ends (§6.5 \"user manually ends temporary unlock\")",
          .assumption("most let it run out")),
        .behavior("clavis.focus_off_constant", -2.5, -20...20,
          "utility constant of switching the Focus off in Control Center or Settings (the bypass the engine cannot see; the lock stays in the app)",
          .assumption("inventory §6 gap 7: the real bypass; guilt and the spec's intent make it rarer than the sanctioned ways")),
        .behavior("clavis.focus_off_friction_seconds", 10, 0...600, "seconds of opening Control Center and switching the Focus off",
          .assumption("two taps")),
        .behavior("clavis.reset_constant", -4, -20...20,
          "utility constant of \"Delete my key\" (§9) while locked: every key and mode gone, set-up again from scratch",
          .assumption("inventory row 43: a cheat with a cost")),
        .behavior("clavis.reset_friction_seconds", 60, 0...600, "seconds of finding \"Delete my key\" and confirming", .assumption("settings and a confirmation")),
        .behavior("clavis.replace_constant", -3.5, -20...20,
          "utility constant of replacing the locked mode's main key with an object at hand (§3 Replace Key while locked, inventory row 14)",
          .assumption("a cheat: a new enrolment of 30–60 s of camera")),
        .behavior("clavis.replace_friction_seconds", 90, 0...600, "seconds of enrolling a new object (8–12 frames, several angles)",
          .assumption("inventory §5: enrolment 30–60 s")),
        .behavior("clavis.look_alike_constant", -3, -20...20,
          "utility constant of trying a look-alike object (another mug, another book) in place of the main key while away",
          .assumption("inventory §7: \"trying a look-alike object\" is a person decision; the person does not know it may work")),
        .behavior("clavis.look_alike_friction_seconds", 20, 0...600, "seconds of finding a similar object and scanning it", .assumption("a scan")),
        .behavior("clavis.lock_frustration", 0.01, 0...1, "frustration step of an urge that meets the lock and is not let through",
          .assumption("as Lazuri's shield: the person chose the lock")),
    ]

    /// Set-up: the object, enrolment, temporary keys and the Focus.
    static let setUp: [RuleParameter] = [
        .behavior("clavis.object.distinctiveness_mean", 0.6, 0.01...0.99,
          "mean distinctiveness d of the object a person makes their key (0 a plain box … 1 a rich 3D shape; beta, concentration 6)",
          .assumption("inventory §5: d drives false rejects and false accepts; everyday objects are middling")),
        .behavior("clavis.onboarding.enrol_completion", 0.85, 0...1,
          "chance a person who starts enrolling their main key finishes it (30–60 s of turning the object before the camera)",
          .assumption("§11 Milestone 5 asks about \"Matching reliability\"; enrolment effort is the set-up's longest step")),
        .behavior("clavis.onboarding.focus_setup_success", 0.7, 0...1,
          "chance the person sets the Focus up and it validates (the Shortcuts step §10 Risk 3 calls confusing); otherwise they stall there",
          .assumption("§10 Risk 3 \"Focus setup confusing\"")),
        .behavior("clavis.temporary_key_share", 0.4, 0...1, "share of people who enrol one temporary key at set-up",
          .assumption("§6.1 makes temporary keys optional")),
        .behavior("clavis.temporary_key_carried_share", 0.6, 0...1,
          "share of temporary keys that are carried (a keyring, a card in a wallet) rather than left at home",
          .assumption("inventory §7: one carried in a bag is a private emergency key")),
        .behavior("clavis.enrolment.seconds_per_frame", 4, 0.2...60,
          "mean seconds between the enrolment frames the engine keeps: the person moves round the object to a new angle every two frames (uniform ±50 %)",
          .assumption("inventory §5: an enrolment takes 30–60 s for 8–12 frames with rejections")),
        .behavior("clavis.enrolment_frustration", 0.02, 0...1, "frustration step of the enrolment's effort", .assumption("a minute of camera work")),
    ]

    /// When people lock and unlock.
    static let habit: [RuleParameter] = [
        .behavior("clavis.lock.leaving_probability", 0.6, 0...1,
          "mean chance a person locks when leaving home for work or school (a per-person propensity, beta with concentration 4)",
          .assumption("inventory §7: whether to lock on a given day is a habit; §1 the key stays home")),
        .behavior("clavis.lock.bedtime_probability", 0.4, 0...1,
          "mean chance a person locks when going to bed (a per-person propensity, beta with concentration 4)",
          .assumption("inventory §7; a Sleep mode")),
        .behavior("clavis.lock.on_open_probability", 0.2, 0...1,
          "chance a person who opens Clavis at home, unlocked, locks there and then (the main screen's \"Lock with my key\")",
          .assumption("§6.3 Lock Flow starts from the main screen; most openings are a look")),
        .behavior("clavis.unlock.arrival_probability", 0.8, 0...1,
          "chance a person locked since leaving unlocks on arriving home (otherwise at the first urge, or not that day)",
          .assumption("inventory §7 \"When to unlock (arriving home, morning)\"")),
        .behavior("clavis.unlock.morning_probability", 0.85, 0...1,
          "chance a person locked since bedtime unlocks on waking", .assumption("inventory §7")),
        .behavior("clavis.bedtime_dark_share", 0.2, 0...1,
          "share of bedtime locks and waking unlocks scanned with the lights already off (the dark; otherwise the evening lamp or the morning room)",
          .assumption("the seed's question \"how often does the key fail to open in a dim bedroom?\"; Scenarios/clavis-dim-bedroom.yaml sets 1")),
        .behavior("clavis.value.locked_cycle", 0.03, 0...1,
          "value step of a lock cycle closed with the key (a stretch the person kept)", .assumption("smaller than a resisted urge's")),
    ]

    /// Scanning.
    static let scanning: [RuleParameter] = [
        .behavior("clavis.scan.patience_seconds", 12, 1...300,
          "median seconds a person keeps the camera on a key before giving up a scan (lognormal, σ 0.5)",
          .assumption("no figure; a few times the ~1 s a good scan takes")),
        .behavior("clavis.scan.retry_probability", 0.6, 0...1, "chance a person tries again after a failed scan (at most `clavis.scan.max_retries` times)",
          .assumption("inventory §7 \"retrying versus giving up\"")),
        .behavior("clavis.scan.max_retries", 2, 0...10, "retries after a failed scan at most", .assumption("patience runs out")),
        .behavior("clavis.scan.light_on_probability", 0.5, 0...1,
          "chance a person whose scan failed in the dark switches a lamp on before trying again (the retry then in dim light)",
          .assumption("inventory §7 \"Scanning: light, ROI tap, retrying versus giving up\"")),
        .behavior("clavis.scan.failure_frustration", 0.03, 0...1, "frustration step of a scan of the real key that fails (a false reject, to the person)",
          .assumption("the seed's risk: \"Matching reliability\" (§11 Milestone 5)")),
    ]
}

/// Clavis's constants, read once per world (`World.constants`).
public struct ClavisConstants: Sendable {
    public var leak: Double
    public var unlockAtHome: OptionRole, unlockFriction: Double
    public var goHome: OptionRole, travelMinutes: Double
    public var temporary: OptionRole, temporaryFriction: Double, endEarly: Double
    public var focusOff: OptionRole, focusOffFriction: Double
    public var reset: OptionRole, resetFriction: Double
    public var replace: OptionRole, replaceFriction: Double
    public var lookAlike: OptionRole, lookAlikeFriction: Double
    public var lockFrustration: Double
    public var distinctivenessMean: Double, enrolCompletion: Double, focusSetup: Double
    public var temporaryKeyShare: Double, temporaryCarried: Double, enrolmentFrustration: Double, enrolmentSecondsPerFrame: Double
    public var bedtimeDark: Double
    public var lockLeaving: Double, lockBedtime: Double, lockOnOpen: Double, unlockArrival: Double, unlockMorning: Double, cycleValue: Double
    public var patienceSeconds: Double, retry: Double, maxRetries: Int, scanFrustration: Double, lightOn: Double
    public var frames: ClavisFrameModel

    public init(values v: BehaviorValues) {
        func open(_ key: String) -> OptionRole { .open(fulfilment: 1, constant: v[key]) }
        leak = v["clavis.focus_leak_probability"]
        unlockAtHome = open("clavis.unlock_at_home_constant"); unlockFriction = v["clavis.unlock_friction_seconds"]
        goHome = open("clavis.go_home_constant"); travelMinutes = v["clavis.travel_minutes"]
        temporary = open("clavis.temporary_constant"); temporaryFriction = v["clavis.temporary_friction_seconds"]
        endEarly = v["clavis.temporary_end_early_probability"]
        focusOff = open("clavis.focus_off_constant"); focusOffFriction = v["clavis.focus_off_friction_seconds"]
        reset = open("clavis.reset_constant"); resetFriction = v["clavis.reset_friction_seconds"]
        replace = open("clavis.replace_constant"); replaceFriction = v["clavis.replace_friction_seconds"]
        lookAlike = open("clavis.look_alike_constant"); lookAlikeFriction = v["clavis.look_alike_friction_seconds"]
        lockFrustration = v["clavis.lock_frustration"]
        distinctivenessMean = v["clavis.object.distinctiveness_mean"]
        enrolCompletion = v["clavis.onboarding.enrol_completion"]
        focusSetup = v["clavis.onboarding.focus_setup_success"]
        temporaryKeyShare = v["clavis.temporary_key_share"]
        temporaryCarried = v["clavis.temporary_key_carried_share"]
        enrolmentFrustration = v["clavis.enrolment_frustration"]
        enrolmentSecondsPerFrame = v["clavis.enrolment.seconds_per_frame"]
        bedtimeDark = v["clavis.bedtime_dark_share"]
        lockLeaving = v["clavis.lock.leaving_probability"]
        lockBedtime = v["clavis.lock.bedtime_probability"]
        lockOnOpen = v["clavis.lock.on_open_probability"]
        unlockArrival = v["clavis.unlock.arrival_probability"]
        unlockMorning = v["clavis.unlock.morning_probability"]
        cycleValue = v["clavis.value.locked_cycle"]
        patienceSeconds = v["clavis.scan.patience_seconds"]
        retry = v["clavis.scan.retry_probability"]
        maxRetries = Int(v["clavis.scan.max_retries"].rounded())
        scanFrustration = v["clavis.scan.failure_frustration"]
        lightOn = v["clavis.scan.light_on_probability"]
        frames = ClavisFrameModel(values: v)
    }
}

extension ValueChannel {
    /// A lock cycle closed with the key: a stretch of time the person kept as they meant to (Clavis).
    public static let lockKept = ValueChannel("lock_kept")
}

extension ClavisAdapter {
    public typealias Constants = ClavisConstants
    public static var behaviorParameterGroups: [BehaviorParameterGroup] { ClavisBehavior.groups }
    public static func constants(_ values: BehaviorValues) -> ClavisConstants { ClavisConstants(values: values) }
}
