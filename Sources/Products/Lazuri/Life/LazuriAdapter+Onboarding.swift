import Behavior
import LazuriRules
import RulesCore
import Simulation

extension LazuriAdapter {
    // MARK: - Onboarding (no tutorial: §6.1.2)

    /// The person as they find their way with no onboarding (§6.1.2 names its lack): the app opens on Learn (its
    /// first card shows, §5.3.3); they go to the Focus tab, where Screen Time is asked (§4.1.2, §5.2; the shared
    /// permission step, `grantsPermission`); then, each step found unaided or not
    /// (`onboarding.completion.configuration` × `lazuri.onboarding.no_tutorial_completion`), they select their target
    /// apps in the picker (step 1), and create a schedule fitting their day and switch it on (step 2; the first
    /// switch-on asks for notifications, P2). A person who stalls keeps the app, unprotected, and may still open it.
    public static func onboard(_ life: inout PersonLife<Self>, at t0: Instant) {
        var t = t0
        life.send(.appOpened, at: t)
        life.engagement.record(.appOpened)
        life.send(.tabOpened(.learn), at: t)
        // Game Center signs in at launch when the person is signed in on the phone (§5.6.1; assumption: half are).
        life.send(.gameCenterAuth(signedIn: life.features.uniform() < 0.5), at: t)
        t = t + .seconds(20)
        life.send(.tabOpened(.focus), at: t)
        guard life.grantsPermission(at: t, denied: { $0.send(.screenTimeAuthorization(granted: false), at: t) }) else {
            life.summary.tally.counts.flag(.onboardingStalled)
            return
        }
        life.send(.screenTimeAuthorization(granted: true), at: t)
        t = t + .seconds(30)
        guard life.onboardingStep(1, completes: findsStep(&life), at: t) else {
            life.trace(kind: "onboarding", detail: "stalled before selecting apps", at: t)
            life.summary.tally.counts.flag(.onboardingStalled)
            life.send(.appClosed, at: t)
            return
        }
        let apps = life.person.apps.indices.map { AppID(UInt16($0 + 1)) }
        if life.send(.setSelection(BlockSelection(apps: apps.count)), at: t) == .updated { life.state.apps = apps }
        t = t + .seconds(40)
        guard life.onboardingStep(2, completes: findsStep(&life), at: t) else {
            life.trace(kind: "onboarding", detail: "stalled before creating a schedule", at: t)
            life.summary.tally.counts.flag(.onboardingStalled)
            life.send(.appClosed, at: t)
            return
        }
        createAndEnable(schedule(&life), &life, at: t)
        if life.engine.schedules.contains(where: \.enabled) { promiseAtSetup(&life, at: t + .seconds(10)) }
        life.send(.appClosed, at: t + .seconds(20))
    }

    /// Whether the person finds a set-up step unaided: one draw from `onboarding`.
    static func findsStep(_ life: inout PersonLife<Self>) -> Bool {
        let found = life.world.onboarding.completesStep(.configuration, techComfort: life.person.techComfort, rng: life.onboarding)
        return found && life.onboarding.uniform() < life.world.constants.noTutorialCompletion
    }

    /// Creates the schedule and switches it on; a window the engine refuses as too short is made an hour long
    /// (assumption: the person retries once). The first switch-on asks for notifications, answered at once
    /// (assumption: 60 % allow them).
    static func createAndEnable(_ spec: ScheduleSpec, _ life: inout PersonLife<Self>, at t: Instant) {
        var spec = spec
        var d = life.send(.createSchedule(spec), at: t)
        if d == .refused(.intervalTooShort) {
            spec.end = LocalTimeOfDay(secondsSinceMidnight: (spec.start.secondsSinceMidnight + 3600) % 86_400)
            d = life.send(.createSchedule(spec), at: t)
        }
        guard case .scheduleCreated(let id) = d else { return }
        life.state.scheduleID = id
        life.state.spec = spec
        life.send(.setScheduleEnabled(id, true), at: t)
        // The first switch-on asks for notifications (P2; the engine's pending prompt), answered at once.
        if life.engine.pendingPrompt == .notifications {
            life.send(.notificationPermission(granted: life.features.uniform() < 0.6), at: t)
        }
    }

    /// The schedule fitting the person's day (inventory §8.2; `lazuri.schedule.*`): a late-night scroller blocks their
    /// night across midnight (their bedtime hours), every day; a student blocks school hours on weekdays, a day worker
    /// work hours on weekdays — or either their evening, every day (`lazuri.schedule.evening_share`).
    static func schedule(_ life: inout PersonLife<Self>) -> ScheduleSpec {
        let k = life.world.constants
        func time(_ hours: Double) -> LocalTimeOfDay {
            LocalTimeOfDay(secondsSinceMidnight: Int32((Int((hours * 60).rounded()) % (24 * 60)) * 60))
        }
        let profile = life.person.phoneUse.dailyProfile
        if profile == .lateNight {
            let f = life.person.featureUse
            return ScheduleSpec(name: "Night", start: time(f.bedtimeScheduleStartHour), end: time(f.bedtimeScheduleEndHour), template: .everyDay)
        }
        if life.features.uniform() < k.eveningShare {
            return ScheduleSpec(name: "Evening", start: time(k.evening.start), end: time(k.evening.end), template: .everyDay)
        }
        let hours = profile == .student ? k.school : k.work
        return ScheduleSpec(name: profile == .student ? "School" : "Work", start: time(hours.start), end: time(hours.end), template: .weekdays)
    }
}
