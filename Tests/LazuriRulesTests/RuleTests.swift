import Testing
import RulesCore
@testable import LazuriRules

/// Each rule from the thesis's own words (seed `002_80c8c6af1a4e5690.txt`), quoted in the test's name or comment.
@Suite("Lazuri rules from the thesis's words")
struct RuleTests {
    // MARK: Schedules

    /// §4.2.2 "ready-made templates such as Weekdays, Weekends, and Every Day"; §4.1.2.1 ""Weekdays" (Monday to Friday)".
    @Test("\"Weekdays\" (Monday to Friday) blocks on Friday and not on Saturday; honour_weekdays false (the code) blocks every day")
    func weekdays() {
        var h = Harness()                                  // day 0 is Monday 2 March 2026
        h.setUp()
        h.schedule(ScheduleSpec(name: "Work", start: tod(9), end: tod(17), template: .weekdays))
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(4, 10)).decision == .shieldShown(.app, promise: false))   // Friday
        h.send(.shieldDismissed, at: h.at(4, 10))
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(5, 10)).decision == .notBlocked)                         // Saturday
        var code = Harness(parameters: params(["schedules.honour_weekdays": .bool(false)]))
        code.setUp()
        code.schedule(ScheduleSpec(name: "Work", start: tod(9), end: tod(17), template: .weekdays))
        #expect(code.send(.blockedTargetOpened(.app), at: code.at(5, 10)).decision == .shieldShown(.app, promise: false))
        #expect(h.problems.isEmpty && code.problems.isEmpty, "\(h.problems) \(code.problems)")
    }

    /// §4.2.2 "Once the time period is over, the blocking will end, and the schedule will remain functional unless the
    /// toggle is deactivated by the user."
    @Test("\"the schedule will remain functional unless the toggle is deactivated\": a window every day for a week")
    func repeats() {
        var h = Harness()
        h.setUp()
        h.schedule(spec(tod(21), tod(22)))
        h.run(until: h.at(7, 0))
        #expect(h.count("block_started") == 7 && h.count("focus_session_recorded") == 7)
        #expect(h.engine.totalFocusMinutes == 7 * 60)
    }

    /// §3.2 "Support crossing midnight"; Figure 17's duration across the clocks going forward: the formula says 300
    /// minutes, the phone's clock makes the night one hour shorter, and the minutes served are the real ones (inventory Q7).
    @Test("a window over the spring-forward night lasts an hour less in real time and earns the real minutes")
    func dst() {
        var h = Harness(day0: LocalDate(year: 2026, month: 3, day: 28)!)   // London springs forward 29 March 01:00
        h.setUp()
        h.schedule(spec(tod(23), tod(4)))
        h.run(until: h.at(1, 4))
        #expect(h.rendered("block_ended") == ["block_ended(schedule=1,outcome=completed,minutes=240)"])
    }

    /// §4.3 "Warnings at the start of the schedule: "No turning back, focus time begins now!""; "Push notifications with
    /// motivational messages: Well done! Your discipline has won the day."
    @Test("\"No turning back, focus time begins now!\" at the start and \"Well done!\" at the end, only with notifications allowed")
    func notifications() {
        var h = Harness()
        h.setUp()
        let id = h.schedule(spec(tod(9), tod(10)))
        h.run(until: h.at(0, 10))
        #expect(h.rendered("window_start_notified") == ["window_start_notified(schedule=\(id))"])
        #expect(h.rendered("window_end_notified") == ["window_end_notified(schedule=\(id))"])
        #expect(h.times("window_start_notified") == [h.at(0, 9)] && h.times("window_end_notified") == [h.at(0, 10)])
        var quiet = Harness()
        quiet.setUp(notifications: false)
        quiet.schedule(spec(tod(9), tod(10)))
        #expect(quiet.rendered("permission_requested") == ["permission_requested(kind=screen_time)", "permission_requested(kind=notifications)"],
                "asked at the first switch-on")
        quiet.send(.notificationPermission(granted: false), at: quiet.now)
        quiet.run(until: quiet.at(0, 10))
        #expect(quiet.count("window_start_notified") == 0 && quiet.count("window_end_notified") == 0)
        #expect(quiet.count("focus_session_recorded") == 1, "the window still blocks and counts")
    }

    /// §4.2.4 "Users are never forced to block; instead, they can choose when to start or stop it."
    @Test("\"choose when to start or stop it\": switched off mid-window the shield lifts at once and earns nothing (prose)")
    func switchOffLifts() {
        var h = Harness()
        h.setUp()
        let id = h.schedule(spec(tod(9), tod(17)))
        h.send(.blockedTargetOpened(.app), at: h.at(0, 10))
        h.send(.setScheduleEnabled(id, false), at: h.at(0, 11))
        #expect(h.rendered("schedule_disabled") == ["schedule_disabled(schedule=\(id),during_window=true)"])
        #expect(h.rendered("block_ended") == ["block_ended(schedule=\(id),outcome=interrupted,minutes=0)"])
        #expect(h.engine.shield == nil)
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 12)).decision == .notBlocked)
        h.run(until: h.at(1, 0))
        #expect(h.engine.totalFocusMinutes == 0)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// The code (§5.2): only the monitor's `intervalDidEnd` clears the shield (`switch_off_mid_window = keep_until_end`).
    @Test("keep_until_end (the code): switched off mid-window the shield stays to the window's end, with no minutes")
    func switchOffKeeps() {
        var h = Harness(parameters: params(["schedules.switch_off_mid_window": .text("keep_until_end")]))
        h.setUp()
        let id = h.schedule(spec(tod(9), tod(17)))
        h.send(.deleteSchedule(id), at: h.at(0, 11))
        #expect(h.rendered("schedule_deleted") == ["schedule_deleted(schedule=\(id),during_window=true)"])
        #expect(h.engine.schedules.isEmpty)
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 12)).decision == .shieldShown(.app, promise: false))
        h.send(.shieldPrimaryPressed, at: h.at(0, 12))
        h.run(until: h.at(0, 17))
        #expect(h.rendered("block_ended") == ["block_ended(schedule=\(id),outcome=interrupted,minutes=0)"])
        #expect(h.times("block_ended") == [h.at(0, 17)])
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 18)).decision == .notBlocked)
        #expect(h.engine.totalFocusMinutes == 0)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// §3.2 "edit only when inactive"; with `active_means = in_window` an enabled schedule may be edited between windows
    /// but the selection stays locked inside one.
    @Test("active_means in_window: an enabled schedule is editable between its windows, not inside one")
    func activeInWindow() {
        var h = Harness(parameters: params(["schedules.active_means": .text("in_window")]))
        h.setUp()
        let id = h.schedule(spec(tod(9), tod(17)))
        #expect(h.send(.editSchedule(id, spec(tod(10), tod(17))), at: h.at(0, 8, 30)).decision == .updated)
        #expect(h.engine.schedules[0].nextStart == h.at(0, 10))
        #expect(h.send(.editSchedule(id, spec(tod(11), tod(17))), at: h.at(0, 12)).decision == .refused(.editWhileActive))
        #expect(h.send(.setSelection(BlockSelection(apps: 1)), at: h.at(0, 12)).decision == .refused(.selectionLocked))
        #expect(h.send(.setSelection(BlockSelection(apps: 1)), at: h.at(0, 18)).decision == .updated)
    }

    /// §6.1.2 "Users can only have one schedule active at a time" vs §3.2 "Create multiple blocking schedules": with
    /// `schedules.max_enabled = 2` both run and each window ends its own session.
    @Test("max_enabled 2 (§3.2 \"multiple\"): two schedules run, each window its own session")
    func twoEnabled() {
        var h = Harness(parameters: params(["schedules.max_enabled": .int(2)]))
        h.setUp()
        h.schedule(spec(tod(9), tod(10)))
        h.schedule(spec(tod(9, 30), tod(11)))
        h.run(until: h.at(0, 12))
        #expect(h.rendered("focus_session_recorded") == ["focus_session_recorded(minutes=60,total=60)", "focus_session_recorded(minutes=90,total=150)"])
    }

    /// Switched on inside a window, the shield goes up at once and the session counts from then (assumption).
    @Test("switched on inside its window, the schedule blocks at once and counts from then")
    func enableMidWindow() {
        var h = Harness()
        h.setUp()
        let id = h.create(spec(tod(9), tod(10)))!
        #expect(h.send(.setScheduleEnabled(id, true), at: h.at(0, 9, 20)).decision == .scheduleEnabled(id, blocking: true))
        h.run(until: h.at(0, 10))
        #expect(h.rendered("block_ended") == ["block_ended(schedule=\(id),outcome=completed,minutes=40)"])
    }

    /// §3.2 "Lock the selection UI while any schedule is active"; an empty selection blocks nothing (inventory S10).
    @Test("the shield covers only what is selected: a domain with no domain selected opens")
    func selectionCovers() {
        var h = Harness()
        h.setUp(apps: 1, categories: 0, domains: 0)
        h.schedule(spec(tod(9), tod(17)))
        #expect(h.send(.blockedTargetOpened(.domain), at: h.at(0, 10)).decision == .notBlocked)
        #expect(h.send(.blockedTargetOpened(.category), at: h.at(0, 10)).decision == .notBlocked)
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 10)).decision == .shieldShown(.app, promise: false))
    }

    /// §3.2 "Name each schedule; enable/disable via toggle; edit only when inactive; delete anytime."
    @Test("\"delete anytime\": an enabled schedule is deleted; saved schedules are capped by max_saved")
    func deleteAnytime() {
        var h = Harness(parameters: params(["schedules.max_saved": .int(2)]))
        h.setUp()
        let a = h.schedule(spec(tod(9), tod(10)))
        h.create(spec(tod(11), tod(12)))
        #expect(h.create(spec(tod(13), tod(14))) == nil)
        #expect(h.lastDecision == .refused(.tooManySchedules))
        #expect(h.send(.deleteSchedule(a), at: h.now).decision == .updated)
        #expect(h.engine.schedules.map(\.id) == [2])
        #expect(h.create(spec(tod(13), tod(14))) == 3, "ids are never reused")
    }

    // MARK: Permissions

    /// §5.2 "The app checks the authorisation status when users open the Focus tab. If it is not determined, the app will
    /// automatically request for a permission … If it is not approved … users will see instructions".
    @Test("Screen Time is asked on opening the Focus tab; denied, the tab shows Settings instructions and Focus is hidden")
    func screenTimeAtFocus() {
        var h = Harness()
        #expect(h.send(.appOpened, at: h.now).decision == .ok)
        #expect(h.send(.tabOpened(.focus), at: h.now).decision == .permissionPrompt(.screenTime))
        h.send(.screenTimeAuthorization(granted: false), at: h.now)
        #expect(h.send(.tabOpened(.focus), at: h.now).decision == .settingsInstructions)
        #expect(h.send(.createSchedule(spec(tod(9), tod(10))), at: h.now).decision == .refused(.noScreenTime))
        #expect(h.send(.setSelection(BlockSelection(apps: 1)), at: h.now).decision == .refused(.noScreenTime))
        var first = Harness(parameters: params(["permissions.screen_time_ask": .text("first_launch")]))
        #expect(first.send(.appOpened, at: first.now).decision == .permissionPrompt(.screenTime), "§3.2 \"on first launch\"")
    }

    /// §4.2.2 "(or revokes permission from the system settings)": the shields go, and come back at the next window once
    /// granted again (§4.1.8 "restores active monitoring schedules").
    @Test("revoking Screen Time lifts the shield and ends the window with no minutes; granted again, the next window blocks")
    func revoke() {
        var h = Harness()
        h.setUp()
        let id = h.schedule(spec(tod(9), tod(17)))
        h.send(.blockedTargetOpened(.app), at: h.at(0, 10))
        h.send(.screenTimeRevoked, at: h.at(0, 11))
        #expect(h.engine.shield == nil)
        #expect(h.rendered("block_ended") == ["block_ended(schedule=\(id),outcome=interrupted,minutes=0)"])
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 12)).decision == .notBlocked)
        h.run(until: h.at(1, 10))
        #expect(h.count("block_started") == 1, "no window blocks without Screen Time")
        h.send(.screenTimeAuthorization(granted: true), at: h.at(1, 11))
        h.run(until: h.at(2, 17))
        #expect(h.rendered("block_ended").last == "block_ended(schedule=\(id),outcome=completed,minutes=480)")
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// §4.1.9 "Users need an active Apple ID with gaming services turned on to use Game Center features, but the main
    /// features are still available without it"; §5.6.2 the score is submitted "only when users view a flashcard for the
    /// first time" and `submitScore()` "verifies authentication status".
    @Test("without Game Center achievements still unlock but no score is submitted and its views are refused")
    func gameCenterOptional() {
        var h = Harness()
        h.send(.appOpened, at: h.now)
        h.send(.tabOpened(.learn), at: h.now)
        for _ in 1..<5 { h.send(.swipe(.next), at: h.now) }
        #expect(h.rendered("achievement_unlocked") == ["achievement_unlocked(id=com.emrekulaber.lazuri.cards5,threshold=5,points=10)"])
        #expect(h.engine.score == 10 && h.count("leaderboard_score_submitted") == 0)
        #expect(h.send(.gameCenterViewOpened(.leaderboards), at: h.now).decision == .refused(.notSignedIn))
    }

    // MARK: Shield and promise

    /// §5.4.2 the shield's subtitle is the promise; §5.4.3 "Note to self:" carries it.
    @Test("with a promise the shield shows it and the note carries it, not the default")
    func promiseOnShield() {
        var h = Harness()
        h.setUp()
        h.send(.savePromise(characters: 40), at: h.now)
        h.schedule(spec(tod(9), tod(17)))
        #expect(h.send(.blockedTargetOpened(.category), at: h.at(0, 10)).decision == .notBlocked, "no category selected")
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 10)).decision == .shieldShown(.app, promise: true))
        h.send(.shieldPrimaryPressed, at: h.at(0, 10))
        #expect(h.rendered("note_to_self_sent") == ["note_to_self_sent(default_text=false)"])
        #expect(h.send(.shieldPrimaryPressed, at: h.at(0, 10)).decision == .refused(.noShield))
    }

    // MARK: Flashcards

    /// §4.1.3 "swipe left to see the next flashcard, and they must swipe right to see the previous one. They can swipe up
    /// to share"; §4.2.1 "'All' in the filter"; the deck wraps at its ends (assumption).
    @Test("swipes move through the filtered deck and wrap; sharing and links count no view")
    func deck() {
        var h = Harness(parameters: params(["cards.deck_size": .int(5)]))
        h.send(.appOpened, at: h.now)
        #expect(h.send(.swipe(.next), at: h.now).decision == .refused(.notOnLearn))
        h.send(.tabOpened(.learn), at: h.now)
        #expect(h.send(.swipe(.previous), at: h.now).decision == .cardShown(4, isNew: true))
        #expect(h.send(.swipe(.next), at: h.now).decision == .cardShown(0, isNew: false))
        #expect(h.send(.setCategoryFilter(.timeManagement), at: h.now).decision == .cardShown(1, isNew: true))
        #expect(h.send(.swipe(.next), at: h.now).decision == .cardShown(3, isNew: true))
        #expect(h.send(.swipe(.next), at: h.now).decision == .cardShown(1, isNew: false))
        #expect(h.send(.swipe(.share), at: h.now).decision == .shared(1))
        #expect(h.engine.uniqueViews == 4)
        #expect(h.send(.cardLinkTapped, at: h.now).decision == .linkOpened(1))
        #expect(!h.engine.appOpen, "the browser leaves the app")
        #expect(h.engine.uniqueViews == 4)
    }

    // MARK: Money

    /// §4.3 "Money: App is free with no in-app purchases."
    @Test("\"App is free with no in-app purchases\": no ledger line, always the unpaid segment")
    func free() {
        var h = Harness()
        h.setUp()
        h.schedule(spec(tod(9), tod(10)))
        h.run(until: h.at(3, 0))
        #expect(h.ledger.isEmpty)
        #expect(h.engine.standing == .unpaid("free"))
        #expect(h.engine.mrrAtHorizon(h.now) == nil)
        #expect(!LazuriEngine.descriptor.revenue.sellsAnything)
    }
}
