import Testing
import RulesCore
@testable import LazuriRules

/// The inventory's acceptance examples §9 (1–10), each from the thesis's words (seed 002).
@Suite("Lazuri acceptance examples (inventory §9)")
struct AcceptanceTests {
    /// 1. §3.2 "Support crossing midnight (e.g., 23:00-04:00)".
    @Test("1. \"Support crossing midnight (e.g., 23:00-04:00)\": 300 min, blocked at 02:00, 300 minutes at 04:00")
    func crossingMidnight() {
        var h = Harness()
        h.setUp()
        let s = spec(tod(23), tod(4))
        #expect(s.durationMinutes == 300 && s.crossesMidnight)
        let id = h.schedule(s)
        #expect(h.rendered("schedule_created") == ["schedule_created(schedule=\(id),duration_min=300,crosses_midnight=true,days=mon,tue,wed,thu,fri,sat,sun)"])
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(0, 22)).decision == .notBlocked)
        #expect(h.send(.blockedTargetOpened(.app), at: h.at(1, 2)).decision == .shieldShown(.app, promise: false))
        #expect(h.rendered("shield_shown") == ["shield_shown(target_kind=app,has_promise=false)"])
        h.run(until: h.at(1, 4))
        #expect(h.rendered("block_ended") == ["block_ended(schedule=\(id),outcome=completed,minutes=300)"])
        #expect(h.engine.totalFocusMinutes == 300)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 2. §3.2 "Minimum duration is 15 minutes"; §5.2 `if duration < 15 { throw DeviceActivityError.intervalTooShort }`.
    @Test("2. \"Minimum duration is 15 minutes\": 09:00–09:14 and 23:50–00:04 refused; 09:00–09:15 and 23:50–00:05 accepted")
    func minimumDuration() {
        var h = Harness()
        h.setUp()
        #expect(h.create(spec(tod(9), tod(9, 14))) == nil)
        #expect(h.lastDecision == .refused(.intervalTooShort))
        #expect(h.create(spec(tod(23, 50), tod(0, 4))) == nil)
        #expect(h.rendered("schedule_rejected") == ["schedule_rejected(reason=interval_too_short)", "schedule_rejected(reason=interval_too_short)"])
        #expect(h.engine.schedules.isEmpty, "a refused schedule stores nothing")
        #expect(h.create(spec(tod(9), tod(9, 15))) != nil)
        #expect(h.create(spec(tod(23, 50), tod(0, 5))) != nil)
        #expect(h.engine.schedules.map(\.spec.durationMinutes) == [15, 15])
    }

    /// 3. §3.2 "Track unique views per card; re-views don't add progress".
    @Test("3. \"re-views don't add progress\": cards 1, 2, 1 give unique_total 2, the third view not new")
    func uniqueViews() {
        var h = Harness()
        h.send(.appOpened, at: h.now)
        h.send(.tabOpened(.learn), at: h.now)            // card 0 appears
        h.send(.swipe(.next), at: h.now)                 // card 1
        h.send(.swipe(.previous), at: h.now)             // card 0 again
        #expect(h.rendered("card_viewed") == ["card_viewed(card_id=0,is_new=true,unique_total=1)",
                                              "card_viewed(card_id=1,is_new=true,unique_total=2)",
                                              "card_viewed(card_id=0,is_new=false,unique_total=2)"])
        #expect(h.engine.uniqueViews == 2)
    }

    /// 4. §4.1.4 "thresholds for viewing 5, 10, 25, 50, 75, and 100 cards" … "(10, 15, 25, 40, 60, and 80 points)".
    @Test("4. the 25th new card unlocks cards25 and the score becomes 50; the 26th unlocks nothing and still submits 50")
    func achievements() {
        var h = Harness()
        h.send(.appOpened, at: h.now)
        h.send(.gameCenterAuth(signedIn: true), at: h.now)
        h.send(.tabOpened(.learn), at: h.now)
        for _ in 1..<24 { h.send(.swipe(.next), at: h.now) }
        #expect(h.engine.uniqueViews == 24 && h.engine.score == 25)
        let mark = h.log.count
        h.send(.swipe(.next), at: h.now)
        #expect(h.rendered(from: mark) == ["achievement_unlocked(id=com.emrekulaber.lazuri.cards25,threshold=25,points=25)",
                                           "card_viewed(card_id=24,is_new=true,unique_total=25)",
                                           "leaderboard_score_submitted(score=50)"])
        let mark2 = h.log.count
        h.send(.swipe(.next), at: h.now)
        #expect(h.rendered(from: mark2) == ["card_viewed(card_id=25,is_new=true,unique_total=26)", "leaderboard_score_submitted(score=50)"])
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 5. §3.2 "returns the user without opening the blocked app"; §5.4.3 default "Stay focused on your goals!".
    @Test("5. no promise: the app shield's button closes with a \"Note to self:\" carrying the default; a domain shield only closes")
    func shieldButton() {
        var h = Harness()
        h.setUp(apps: 2, domains: 1)
        h.schedule(spec(tod(9), tod(17)))
        h.send(.blockedTargetOpened(.app), at: h.at(0, 10))
        #expect(h.send(.shieldPrimaryPressed, at: h.at(0, 10)).decision == .shieldClosed(noteToSelf: true))
        #expect(h.rendered("note_to_self_sent") == ["note_to_self_sent(default_text=true)"])
        h.send(.blockedTargetOpened(.domain), at: h.at(0, 11))
        #expect(h.send(.shieldPrimaryPressed, at: h.at(0, 11)).decision == .shieldClosed(noteToSelf: false))
        #expect(h.count("note_to_self_sent") == 1)
        #expect(h.rendered("promise_kept_pressed") == ["promise_kept_pressed(target_kind=app)", "promise_kept_pressed(target_kind=domain)"])
    }

    /// 6. §5.4.1 "limits input to 900 characters by cutting off anything longer".
    @Test("6. saving 1,000 characters stores 900 (truncated); whitespace only is refused")
    func promiseLimit() {
        var h = Harness()
        h.send(.savePromise(characters: 1000), at: h.now)
        #expect(h.engine.promiseLength == 900)
        #expect(h.rendered("promise_saved") == ["promise_saved(length=900,truncated=true,first_time=true)"])
        #expect(h.send(.savePromise(characters: 0), at: h.now).decision == .refused(.emptyPromise))
        #expect(h.engine.promiseLength == 900, "a promise once set cannot be cleared")
    }

    /// 7. §4.2.2 "Users won't be able to edit an active schedule and the app selection".
    @Test("7. while a schedule is enabled, editing it and the selection are refused; after switching it off both succeed")
    func editLock() {
        var h = Harness()
        h.setUp()
        let id = h.schedule(spec(tod(9), tod(17)))
        #expect(h.send(.editSchedule(id, spec(tod(10), tod(17))), at: h.now).decision == .refused(.editWhileActive))
        #expect(h.send(.setSelection(BlockSelection(apps: 5)), at: h.now).decision == .refused(.selectionLocked))
        #expect(h.count("selection_edit_blocked") == 1)
        h.send(.setScheduleEnabled(id, false), at: h.now)
        #expect(h.send(.editSchedule(id, spec(tod(10), tod(17))), at: h.now).decision == .updated)
        #expect(h.send(.setSelection(BlockSelection(apps: 5)), at: h.now).decision == .updated)
    }

    /// 8. §6.1.2 "Users can only have one schedule active at a time".
    @Test("8. with A enabled, enabling B is refused with another_active")
    func oneActive() {
        var h = Harness()
        h.setUp()
        h.schedule(spec(tod(9), tod(12)))
        let b = h.create(spec(tod(20), tod(22)))!
        #expect(h.send(.setScheduleEnabled(b, true), at: h.now).decision == .refused(.anotherActive))
        #expect(h.rendered("schedule_rejected") == ["schedule_rejected(reason=another_active)"])
        #expect(h.engine.enabledCount == 1)
    }

    /// 9. §5.5.2 "2 hour(s) 30 minute(s)" … "1 hour(s)" … an empty string.
    @Test("9. 150, 60 and 45 minutes read \"2 hour(s) 30 minute(s)\", \"1 hour(s)\" and \"\"")
    func hoursAndMinutes() {
        #expect(LazuriEngine.formatHoursAndMinutes(150) == "2 hour(s) 30 minute(s)")
        #expect(LazuriEngine.formatHoursAndMinutes(60) == "1 hour(s)")
        #expect(LazuriEngine.formatHoursAndMinutes(45) == "")
    }

    /// 10. §4.1.8 "stops duplicate focus sessions by looking at timestamps in one-second windows".
    @Test("10. the same window end delivered twice credits its minutes once and reports the duplicate")
    func duplicateSession() {
        var h = Harness()
        h.setUp()
        h.schedule(spec(tod(9), tod(10)))
        h.run(until: h.at(0, 10))
        #expect(h.engine.totalFocusMinutes == 60)
        h.send(.timer(LazuriTimer(.windowEnd, at: h.at(0, 10))), at: h.at(0, 10))
        #expect(h.engine.totalFocusMinutes == 60)
        #expect(h.count("focus_session_duplicate_dropped") == 1)
        #expect(h.count("focus_session_recorded") == 1)
    }
}
