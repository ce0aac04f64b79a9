import Simulation
import Behavior
import EarnedAccessRules
import RulesCore

extension EarnedAccessAdapter {
    // MARK: - Onboarding (seed 003 §3 A)

    /// "1) Goal selection 2) Screen Time authorization explanation → request 3) Pick distracting apps (native picker)
    /// 4) Create first mode (template: Work/Study/Sleep) 5) Confirm unlock style defaults 6) Land in Home tabs".
    ///
    /// - Screen Time denied (the permission step, `onboarding.completion.permission`): nothing is enforced and the
    ///   person stays dormant (assumption, inventory row 45).
    /// - The person picks their own apps; on Free the 4th is a paywall moment (§5), weighed at once; refused apps are
    ///   remembered and added if the person goes Pro.
    /// - The first mode comes from the persona (`firstMode`); steps 4–5 are configuration steps a person may abandon
    ///   (`onboarding.completion.configuration`), leaving Earned Access set up but without a mode.
    /// - Habits: the person sets up their habits (`HabitCheckInModel.habitsSetUp`) on Home (assumption: seed 003 names
    ///   habits but no step for them).
    public static func onboard(_ life: inout PersonLife<Self>, at t0: Instant) {
        var t = t0
        life.state.installDayID = life.engine.dayID
        life.send(.appOpened, at: t)
        life.engagement.record(.appOpened)
        life.send(.onboarding(.goalSelected), at: t)
        t = t + .seconds(30)
        let comfort = life.person.techComfort
        guard life.grantsPermission(at: t, denied: { $0.send(.authorization(.denied), at: t) }) else { return }
        life.send(.authorization(.granted), at: t)
        life.send(.onboarding(.authorizationExplained), at: t)
        t = t + .seconds(30)
        for i in life.person.apps.indices {
            addApp(AppID(UInt16(i + 1)), &life, at: t)
            t = t + .seconds(8)
        }
        life.send(.onboarding(.appsPicked), at: t)
        t = t + .seconds(20)
        guard life.onboardingStep(1, completes: life.world.onboarding.completesStep(.configuration, techComfort: comfort, rng: life.onboarding), at: t) else {
            life.trace(kind: "onboarding", detail: "abandoned at the first mode", at: t)
            return
        }
        var first = firstMode(&life)
        switch life.world.onboarding.blockFirmness(rng: life.features) {
        case .standard: break
        case .strict: life.state.wantedStrictness = .strict
        case .hard: life.state.wantedStrictness = .hard
        }
        first.strictness = life.state.wantedStrictness
        if life.send(.createMode(first), at: t) == .paywall {
            // Free: Strict/Hard is the §5 paywall moment, weighed at once; without Pro the mode is Standard.
            settlePaywall(&life, at: t)
            first.strictness = life.engine.tier == .pro ? life.state.wantedStrictness : .standard
            life.send(.createMode(first), at: t)
        }
        life.send(.onboarding(.firstModeCreated), at: t)
        // A sleep mode beside a work or study block, added the next evening by people given to bedtime schedules
        // (their `bedtime_schedule` propensity; assumption) — on Free the seed's "2nd mode" paywall moment (§5).
        if first.template != .sleep, life.features.uniform() < life.person.featureUse.bedtimeSchedulePropensity {
            let evening = life.zone.instant(on: life.zone.localDate(t) + 1, at: LocalTimeOfDay(secondsSinceMidnight: 21 * 3600))
            schedule(.addSleepMode, at: evening, &life)
        }
        t = t + .seconds(30)
        if life.onboardingStep(2, completes: life.world.onboarding.completesStep(.configuration, techComfort: comfort, rng: life.onboarding), at: t) {
            life.send(.onboarding(.unlockStyleConfirmed), at: t)
        }
        t = t + .seconds(15)
        life.send(.onboarding(.home), at: t)
        for _ in 0..<life.world.constants.habits.habitsSetUp(rng: life.features) {
            if life.send(.createHabit, at: t) == .habitCreated, let id = life.engine.habits.last?.id { life.state.habits.append(id) }
        }
        settlePaywall(&life, at: t)
        planDay(&life, day: life.zone.localDate(t), after: t)
    }

    /// Picks an app; a refusal with the paywall is weighed at once and, if the person went Pro, the app is added.
    static func addApp(_ app: AppID, _ life: inout PersonLife<Self>, at t: Instant) {
        switch life.send(.addApp(app), at: t) {
        case .paywall:
            settlePaywall(&life, at: t)
            if life.engine.tier == .pro, life.send(.addApp(app), at: t) == .appAdded { life.state.apps.append(app) } else { life.state.wantedApps.append(app) }
        case .appAdded:
            life.state.apps.append(app)
        default:
            break
        }
    }

    /// The person's sleep mode over their bedtime (§3 A) 4 template Sleep).
    static func sleepMode(_ life: inout PersonLife<Self>) -> ModeSpec {
        let f = life.person.featureUse
        return ModeSpec(template: .sleep, window: DailyWindow(start: time(f.bedtimeScheduleStartHour), end: time(f.bedtimeScheduleEndHour)),
                        strictness: life.engine.tier == .pro ? life.state.wantedStrictness : .standard)
    }

    static func time(_ hours: Double) -> LocalTimeOfDay {
        let minutes = Int((hours * 60).rounded()) % (24 * 60)
        return LocalTimeOfDay(secondsSinceMidnight: Int32(minutes * 60))
    }

    /// Adds the sleep mode; on Free the second mode shows the paywall, weighed at once, and a person who goes Pro
    /// adds it then (or after a later purchase).
    static func addSleepMode(_ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.dormant, life.engine.authorization == .granted else { return }
        switch life.send(.createMode(sleepMode(&life)), at: now) {
        case .paywall:
            life.state.wantsSleepMode = true
            settlePaywall(&life, at: now)
        default:
            life.state.wantsSleepMode = false
        }
    }

    /// The first mode from the persona (seed 003 §3 A) 4 "template: Work/Study/Sleep"; assumption): a sleep mode over
    /// the person's bedtime for late-night scrollers; a study block 10:00–18:00 on weekdays for students (and the
    /// student-profile ADHD adult); a work block 09:00–17:00 on weekdays for everyone else.
    static func firstMode(_ life: inout PersonLife<Self>) -> ModeSpec {
        switch life.person.phoneUse.dailyProfile {
        case .lateNight:
            return sleepMode(&life)
        case .student:
            return ModeSpec(template: .study, window: DailyWindow(start: time(10), end: time(18), days: .weekdays))
        case .dayWorker:
            return ModeSpec(template: .work, window: DailyWindow(start: time(9), end: time(17), days: .weekdays))
        }
    }

    // MARK: - Opening Earned Access itself

    /// Opening Earned Access on a cue (the engagement habit, as for every product): Home, sometimes Progress; the
    /// paywall the engine may show there is weighed.
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.opensAppOnCue(cue) else { return }
        life.send(.appOpened, at: now)
        life.engagement.record(.appOpened)
        if life.engine.gateApp != nil, life.engine.pending == nil { life.send(.leaveGate, at: now) }
        // Under the hard paywall (`paywall.mode` hard) the opening lands on the paywall, not Home: no Progress view.
        let walled = life.state.pendingPaywall.map { $0.trigger == .hardPaywall && $0.at == now } ?? false
        if !walled, life.sessions.uniform() < life.world.insightViewProbability {
            // Progress; on Pro the weekly review, once a week (seed 003 §5 Pro "Weekly review + insights"; assumption:
            // looked at with the same probability, on the first such open of a day_id week).
            let week = life.engine.dayID.isoWeek
            if life.engine.tier == .pro, life.state.lastReviewWeek != week {
                life.state.lastReviewWeek = week
                life.send(.view(.weeklyReview), at: now)
            } else {
                life.send(.view(.progress), at: now)
            }
        }
        settlePaywall(&life, at: now)
    }
}
