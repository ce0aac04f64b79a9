import Foundation
import RulesCore
import Stochastics

/// Where a person is (issue 44): at home, at work or school, or out. Places are the person's, whatever product they
/// meet — Clavis's key objects stay at home (seed `004_8fa1e69c755a74b3.txt` §1 "leaves main key objects at home"), so
/// where the person is decides whether the key can be reached.
public enum Place: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case home, work, out

    public var description: String {
        switch self {
        case .home: "home"
        case .work: "work"
        case .out: "out"
        }
    }
}

/// The light a camera meets in a place at an hour (issue 44: scans are measurements whose frames depend on it):
/// `bright` daylight outdoors, `indoor` a lit room, `dim` an evening lamp or a street at night, `dark` a bedroom with
/// the lights off. Assumption: four levels, the inventory's (clavis.md §5: frame rejection 0.05 / 0.10 / 0.35 / 0.90).
public enum Lighting: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case bright, indoor, dim, dark

    public var description: String {
        switch self {
        case .bright: "bright"
        case .indoor: "indoor"
        case .dim: "dim"
        case .dark: "dark"
        }
    }

    /// The light in `place` at local hour `hour` (0…24) for a person who falls asleep at `sleepStart` (may pass 24)
    /// and wakes at `wake` (0…24). Home: a lit room by day, a lamp in the evening, dark from falling asleep to waking;
    /// work or school: a lit room; out: daylight from 7 to 18, a street at night otherwise (assumption).
    public static func at(_ place: Place, hour: Double, sleepStart: Double, wake: Double) -> Lighting {
        let h = hour.truncatingRemainder(dividingBy: 24)
        switch place {
        case .work: return .indoor
        case .out: return (7..<18).contains(h) ? .bright : .dim
        case .home:
            let s = sleepStart.truncatingRemainder(dividingBy: 24)
            let asleep = s <= wake ? (s <= h && h < wake) : (h >= s || h < wake)
            if asleep { return .dark }
            return (7..<18).contains(h) ? .indoor : .dim
        }
    }
}

/// A move to a place (one occurrence of `WhereaboutsProcess`).
public struct Move: Sendable, Hashable {
    /// Where the person arrives.
    public let to: Place
    /// A trip a decision asked for (`Whereabouts.goHome`: back home for the key, then back), not the day's plan.
    public let steered: Bool

    public init(to: Place, steered: Bool = false) {
        self.to = to
        self.steered = steered
    }
}

/// Where the person is, the process's mind: the place of the last move, and a trip home a product's decision asked
/// for ("go back home for the key", issue 44) — steered with `life.steer(WhereaboutsProcess.self) { $0.goHome(…) }`.
public struct Whereabouts: Sendable, Hashable {
    /// Where the person is now.
    public internal(set) var place: Place = .home
    /// A steered trip: home first (`travel` from now), then back to where the day's plan has them.
    public internal(set) var trip: Trip?

    public enum Trip: Sendable, Hashable {
        /// On the way home; `back` the place to return to after `stay` at home (nil: stay home).
        case goingHome(travel: TimeSpan, stay: TimeSpan, back: Place?)
        /// At home, about to go back to `back`.
        case goingBack(back: Place, travel: TimeSpan, after: TimeSpan)
    }

    public init() {}

    /// A decision sends the person home (for the key), taking `travel`, staying `stay`, then back to where they were
    /// (not when they were home already). The process's next occurrence is redrawn from the steered mind.
    public mutating func goHome(travel: TimeSpan, stay: TimeSpan = .minutes(5)) {
        guard place != .home else { return }
        trip = .goingHome(travel: travel, stay: stay, back: place)
    }

    /// The person is where the move takes them (the trip's legs advance).
    mutating func arrive(_ m: Move) {
        place = m.to
        guard m.steered, let t = trip else { return }
        switch t {
        case let .goingHome(travel, stay, back):
            trip = back.map { .goingBack(back: $0, travel: travel, after: stay) }
        case .goingBack:
            trip = nil
        }
    }
}

/// The places of a person's day (issue 44): a `PersonProcess` every person lives, with any product and with none,
/// drawn from its own stream (`places`) keyed without arm or product. Each local day is planned at its start from the
/// person's daily profile (`DailyProfile`) and sleep, with a fixed number of draws a day (so a day's plan never
/// depends on the day before's):
/// * a day worker or student, on weekdays: leaves home around 8:15 (student 8:00; σ 30 min), is at work or school
///   until around 17:30 (student 15:30; σ 45 min), then out for 1–3 hours with probability 0.35, then home;
/// * a late-night scroller on weekdays, and everyone at weekends: out in the afternoon or evening with probability
///   0.6 (weekend; late-night scroller on weekdays 0.3), starting around 14:00 (σ 2 h; late-night 20:00), for a
///   lognormal 2.5 hours (σ 0.5), then home;
/// * every move falls while awake (before the person falls asleep); a person asleep is at home.
/// A decision may steer a trip home and back (`Whereabouts.goHome`); the plan's later moves then follow as drawn.
/// Every time and share here is an assumption (no published diary figure is fitted; Behavior README, "Places").
public struct WhereaboutsProcess: PersonProcess {
    public typealias Occurrence = Move
    public typealias Mind = Whereabouts
    public static let stream = StreamName("places")

    let profile: DailyProfile
    let sleepStart: Double
    let wake: Double
    /// The planned moves of the day last planned (local hours from its midnight), and that day.
    var plannedDay: LocalDate?
    var moves = DayMoves()

    /// At most four moves of one day, in time order, held inline (no array: a plan a day for every person).
    struct DayMoves: Sendable {
        var hours: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var places: (Place, Place, Place, Place) = (.home, .home, .home, .home)
        private(set) var count = 0
        var last: (hour: Double, to: Place)? { count == 0 ? nil : self[count - 1] }

        subscript(i: Int) -> (hour: Double, to: Place) {
            switch i {
            case 0: (hours.0, places.0)
            case 1: (hours.1, places.1)
            case 2: (hours.2, places.2)
            default: (hours.3, places.3)
            }
        }

        mutating func append(_ m: (Double, Place)) {
            switch count {
            case 0: hours.0 = m.0; places.0 = m.1
            case 1: hours.1 = m.0; places.1 = m.1
            case 2: hours.2 = m.0; places.2 = m.1
            case 3: hours.3 = m.0; places.3 = m.1
            default: preconditionFailure("a day plans at most four moves")
            }
            count += 1
        }
    }
    var midnights = MidnightCache()

    public init(person: Person) {
        let p = person.phoneUse
        profile = p.dailyProfile
        sleepStart = p.sleepStartHour
        wake = max(0, p.sleepStartHour + p.sleepHours - 24)
    }

    public static func mind(person: Person, behavior: BehaviorValues) -> Whereabouts { Whereabouts() }

    public static func liveUnaided(_ m: Move, mind: inout Whereabouts, zone: ZoneCalendar) { mind.arrive(m) }

    public static func traceRow(_ m: Move, mind: Whereabouts) -> (kind: String, detail: String)? {
        ("place", m.steered ? "\(m.to) (a trip for the key)" : "\(m.to)")
    }

    /// The light of `place` at instant `t` in `zone` for this person (`Lighting.at`).
    public func lighting(_ place: Place, at t: Instant, zone: ZoneCalendar) -> Lighting {
        Lighting.at(place, hour: Double(zone.localDateTime(t).millisecondsIntoDay) / 3_600_000, sleepStart: sleepStart, wake: wake)
    }

    /// The day's planned moves, in time order: a fixed six draws a day.
    mutating func plan(_ d: LocalDate, rng: RandomStream) -> DayMoves {
        let weekend = d.weekday.isWeekend
        let u1 = rng.normal(mean: 0, standardDeviation: 1), u2 = rng.normal(mean: 0, standardDeviation: 1)
        let goesOut = rng.uniform(), outLength = rng.lognormal(mu: log(2.5), sigma: 0.5)
        let outStart = rng.normal(mean: 0, standardDeviation: 1), eveningOut = rng.uniform(from: 1, to: 3)
        let awakeUntil = sleepStart - 0.25
        var moves = DayMoves()
        func add(_ h: Double, _ p: Place) {
            guard h > wake, h < awakeUntil, (moves.last?.hour ?? -1) < h else { return }
            moves.append((h, p))
        }
        if !weekend && profile != .lateNight {
            let student = profile == .student
            let leave = (student ? 8.0 : 8.25) + 0.5 * u1
            let back = (student ? 15.5 : 17.5) + 0.75 * u2
            add(leave, .work)
            if goesOut < 0.35 {
                add(back, .out)
                add(back + eveningOut, .home)
            } else {
                add(back, .home)
            }
        } else {
            let p = weekend ? 0.6 : 0.3
            let start = (weekend ? 14.0 : 20.0) + 2 * outStart
            if goesOut < p {
                add(start, .out)
                add(start + outLength, .home)
            }
        }
        // A move that could not be placed (asleep, out of order) leaves the person where they were; the day ends home.
        if let last = moves.last, last.to != .home { moves.append((min(awakeUntil, last.hour + 4), .home)) }
        return moves
    }

    public mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream, mind: Whereabouts) -> (at: Instant, occurrence: Move)? {
        if let trip = mind.trip {
            switch trip {
            case let .goingHome(travel, _, _): return (t + travel, Move(to: .home, steered: true))
            case let .goingBack(back, travel, after): return (t + after + travel, Move(to: back, steered: true))
            }
        }
        var d = zone.localDate(t)
        // A day may have no move (a late-night scroller's weekday at home): look on, up to a year.
        for _ in 0..<366 {
            if plannedDay != d {
                moves = plan(d, rng: rng)
                plannedDay = d
            }
            let midnight = midnights.midnight(of: d, zone: zone)
            for i in 0..<moves.count {
                let m = moves[i]
                let at = midnight + .milliseconds(Int64(m.hour * 3_600_000))
                if at > t { return (at, Move(to: m.to)) }
            }
            d = d + 1
        }
        return nil
    }
}
