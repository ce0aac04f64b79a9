import Foundation
import RulesCore
import Stochastics
import Testing
@testable import Behavior

/// The places of a person's day (issue 44): a day worker is at work on weekdays and home at night, a weekend has no
/// work, a late-night scroller has no work, lighting follows place and hour, and a steered trip home goes home and back.
struct WhereaboutsTests {
    static let zone = try! ZoneCalendar(identifier: "Europe/London", startingOn: LocalDate(year: 2026, month: 1, day: 1)!, days: 400)
    /// Monday 2026-03-02, 00:00 London.
    static let monday = zone.instant(on: LocalDate(year: 2026, month: 3, day: 2)!, at: .midnight)

    static func person(_ persona: String, id: UInt64) throws -> Person {
        Person.draw(persona: try PersonaCatalog.persona(named: persona), id: id, seed: 7, replication: 0)
    }

    /// The moves lived unaided over `days` days from Monday 00:00, with the place after each.
    static func week(_ person: Person, id: UInt64 = 1, days: Int = 7, steerAt: Instant? = nil) -> [(at: Instant, move: Move, place: Place)] {
        var process = WhereaboutsProcess(person: person)
        var mind = Whereabouts()
        let rng = RandomStream(key: StreamKey(seed: 7, replication: 0, person: id, stream: WhereaboutsProcess.stream))
        var t = monday, out: [(Instant, Move, Place)] = []
        var steered = false
        while case let (at, m)? = process.next(after: t, zone: zone, rng: rng, mind: mind), at < monday + .days(Int64(days)) {
            if let s = steerAt, !steered, at > s {
                steered = true
                mind.goHome(travel: .minutes(25))
                t = s
                continue
            }
            WhereaboutsProcess.liveUnaided(m, mind: &mind, zone: zone)
            out.append((at, m, mind.place))
            t = at
        }
        return out
    }

    func hour(_ t: Instant) -> Double { Double(Self.zone.hour(t)) + Double(Self.zone.minute(t)) / 60 }

    @Test("a worker leaves for work on each weekday morning, comes home each evening and is home every night; no work at weekends")
    func workerWeek() throws {
        var workdays = 0
        for id in 1...20 {
            let moves = Self.week(try Self.person("worker", id: UInt64(id)), id: UInt64(id))
            for (at, m, _) in moves where m.to == .work {
                #expect(!Self.zone.localDate(at).weekday.isWeekend, "work on a weekend: \(at)")
                #expect((6.0...10.5).contains(hour(at)), "left for work at \(hour(at))")
                workdays += 1
            }
            // Every day ends at home: the last move before each local midnight goes home.
            for day in 0..<7 {
                let end = Self.monday + .days(Int64(day + 1))
                if let last = moves.last(where: { $0.at < end && $0.at >= end - .days(1) }) { #expect(last.place == .home, "person \(id) day \(day)") }
            }
        }
        #expect(workdays > 20 * 5 * 8 / 10, "\(workdays) workdays of 100")
    }

    @Test("a late-night scroller has no workplace; evenings out happen, and more at weekends")
    func lateNight() throws {
        var weekdayOut = 0, weekendOut = 0
        for id in 1...40 {
            for (at, m, _) in Self.week(try Self.person("late-night-scroller", id: UInt64(id)), id: UInt64(id)) {
                #expect(m.to != .work)
                if m.to == .out { if Self.zone.localDate(at).weekday.isWeekend { weekendOut += 1 } else { weekdayOut += 1 } }
            }
        }
        // 0.3 a weekday (5 days) against 0.6 a weekend day (2 days), for 40 people: about 60 and 48.
        #expect((30...95).contains(weekdayOut) && (25...75).contains(weekendOut), "weekday \(weekdayOut), weekend \(weekendOut)")
    }

    @Test("lighting: home is dark while asleep, a lamp in the evening, a lit room by day; work is lit; out is daylight by day")
    func lighting() {
        #expect(Lighting.at(.home, hour: 2, sleepStart: 23.5, wake: 7) == .dark)
        #expect(Lighting.at(.home, hour: 23.75, sleepStart: 23.5, wake: 7) == .dark)
        #expect(Lighting.at(.home, hour: 21, sleepStart: 23.5, wake: 7) == .dim)
        #expect(Lighting.at(.home, hour: 10, sleepStart: 23.5, wake: 7) == .indoor)
        #expect(Lighting.at(.home, hour: 0.5, sleepStart: 25, wake: 8) == .dim, "a late sleeper is awake at 00:30")
        #expect(Lighting.at(.home, hour: 1.5, sleepStart: 25, wake: 8) == .dark)
        #expect(Lighting.at(.work, hour: 10, sleepStart: 23.5, wake: 7) == .indoor)
        #expect(Lighting.at(.out, hour: 12, sleepStart: 23.5, wake: 7) == .bright)
        #expect(Lighting.at(.out, hour: 21, sleepStart: 23.5, wake: 7) == .dim)
    }

    @Test("a steered trip: from work the person goes home (travel), stays, goes back to work, and the plan then goes on")
    func steeredTrip() throws {
        let person = try Self.person("worker", id: 3)
        let plain = Self.week(person, days: 1)
        guard let atWork = plain.first(where: { $0.move.to == .work }), let home = plain.first(where: { $0.at > atWork.at && $0.move.to != .work }) else {
            Issue.record("no workday: \(plain)"); return
        }
        let steerAt = atWork.at + .hours(1)
        let trip = Self.week(person, days: 1, steerAt: steerAt)
        let steered = trip.filter { $0.move.steered }
        #expect(steered.map(\.move.to) == [.home, .work])
        #expect(steered.first?.at == steerAt + .minutes(25))
        #expect(steered.last?.at == steerAt + .minutes(25) + .minutes(5) + .minutes(25))
        // The day's later moves are the plan's, unchanged.
        #expect(trip.last?.at == plain.last?.at && trip.last?.move == plain.last?.move, "\(home)")
        // Home already: no trip.
        var mind = Whereabouts()
        mind.goHome(travel: .minutes(25))
        #expect(mind.trip == nil)
    }

    @Test("each day is planned with the same draws whatever happened the day before: a steered trip changes no later day")
    func daysIndependent() throws {
        let person = try Self.person("student", id: 5)
        let plain = Self.week(person, days: 3).filter { $0.at >= Self.monday + .days(1) }
        let steered = Self.week(person, days: 3, steerAt: Self.monday + .hours(12)).filter { $0.at >= Self.monday + .days(1) && !$0.move.steered }
        #expect(plain.map(\.at) == steered.map(\.at) && plain.map(\.move) == steered.map(\.move))
    }
}
