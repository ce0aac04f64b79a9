import Behavior
import ClavisRules
import Reports
import RulesCore
import Simulation

/// What Clavis's reports count, per person and (summed) per run.
public enum ClavisCount: Int, CounterKey {
    /// Camera (AR session) milliseconds of scans and enrolments.
    case cameraMs
    /// Enrolments started and completed; matched scans and their frames (the engine's events).
    case enrolStarted, enrolCompleted, matchedScans, matchedFrames
    /// Per-person flags (0 or 1), summed to counts of people: observed past day 7, opened the app on day 7, locked at
    /// some time on day 7, stalled in onboarding.
    case d7Eligible, d7Engaged, d7Locked, onboardingStalled

    public var bound: CounterBound<ClavisCount> {
        switch self {
        case .d7Eligible, .onboardingStalled: .people
        case .d7Engaged, .d7Locked: .atMost(.d7Eligible)
        case .cameraMs, .enrolStarted, .enrolCompleted, .matchedScans, .matchedFrames: .perPersonDay
        }
    }
}

/// One week's lock figures (`lock-cycles.csv`). Index: week since install (days 0–6 are week 0).
public struct LockWeek: Hashable, Sendable, Codable, DailyFigures {
    /// People whose lives covered some of the week, and people locked at some time in it.
    public var people = 0, peopleLocked = 0
    public var lockAttempts = 0, cyclesStarted = 0, cyclesClosed = 0, lockedMinutes = 0, temporaryUnlocks = 0
    public var urgesLocked = 0, endured = 0, leaked = 0, unlockedOnUrge = 0, wentHome = 0, wentHomeUnlocked = 0
    public var temporaryTries = 0, focusOff = 0, resets = 0, replaced = 0, lookAlikeTries = 0
    public init() {}

    public mutating func merge(_ o: LockWeek) {
        people += o.people; peopleLocked += o.peopleLocked; lockAttempts += o.lockAttempts; cyclesStarted += o.cyclesStarted
        cyclesClosed += o.cyclesClosed; lockedMinutes += o.lockedMinutes; temporaryUnlocks += o.temporaryUnlocks
        urgesLocked += o.urgesLocked; endured += o.endured; leaked += o.leaked; unlockedOnUrge += o.unlockedOnUrge
        wentHome += o.wentHome; wentHomeUnlocked += o.wentHomeUnlocked; temporaryTries += o.temporaryTries
        focusOff += o.focusOff; resets += o.resets; replaced += o.replaced; lookAlikeTries += o.lookAlikeTries
    }

    static var fields: [(String, (LockWeek) -> Int)] { [
        ("people_locked", \.peopleLocked), ("lock_attempts", \.lockAttempts), ("cycles_started", \.cyclesStarted),
        ("cycles_closed", \.cyclesClosed), ("locked_minutes", \.lockedMinutes), ("temporary_unlocks", \.temporaryUnlocks),
        ("urges_locked", \.urgesLocked), ("endured", \.endured), ("leaked", \.leaked), ("unlocked_on_urge", \.unlockedOnUrge),
        ("went_home", \.wentHome), ("went_home_unlocked", \.wentHomeUnlocked), ("temporary_tries", \.temporaryTries),
        ("bypass_focus_off", \.focusOff), ("bypass_reset", \.resets), ("bypass_replace", \.replaced),
        ("look_alike_tries", \.lookAlikeTries),
    ] }
}

/// Scan figures of one kind, lighting and object (`scans.csv`), with the time to a match as a histogram.
public struct ScanCell: Hashable, Sendable, Codable {
    public var attempts = 0, matches = 0, falseRejects = 0, falseAccepts = 0, cameraMs = 0
    /// Matched scans by time to match, in `ScanCell.binSeconds` bins (the last holds everything longer).
    public var matchTimes: [Int] = []
    public static let binSeconds = 0.25, bins = 481

    public init() {}

    mutating func merge(_ o: ScanCell) {
        attempts += o.attempts; matches += o.matches; falseRejects += o.falseRejects; falseAccepts += o.falseAccepts
        cameraMs += o.cameraMs
        if !o.matchTimes.isEmpty {
            if matchTimes.isEmpty { matchTimes = Array(repeating: 0, count: Self.bins) }
            for i in o.matchTimes.indices { matchTimes[i] += o.matchTimes[i] }
        }
    }

    mutating func addMatch(seconds: Double) {
        if matchTimes.isEmpty { matchTimes = Array(repeating: 0, count: Self.bins) }
        matchTimes[min(Self.bins - 1, max(0, Int(seconds / Self.binSeconds)))] += 1
    }

    /// The time to match at quantile `q` (the bin's midpoint), NaN without a match.
    public func seconds(atQuantile q: Double) -> Double {
        let total = matchTimes.reduce(0, +)
        guard total > 0 else { return .nan }
        let rank = q * Double(total)
        var seen = 0
        for (i, n) in matchTimes.enumerated() {
            seen += n
            if Double(seen) >= rank && n > 0 { return (Double(i) + 0.5) * Self.binSeconds }
        }
        return Double(Self.bins) * Self.binSeconds
    }

    /// The cell of a scan: kind × lighting × object (genuine key or look-alike).
    static func index(_ kind: ScanKind, _ light: Lighting, lookAlike: Bool) -> Int {
        (ScanKind.allCases.firstIndex(of: kind)! * Lighting.allCases.count + Int(light.rawValue)) * 2 + (lookAlike ? 1 : 0)
    }
    static var count: Int { ScanKind.allCases.count * Lighting.allCases.count * 2 }
}

/// One person's Clavis figures.
public struct ClavisTally: Sendable {
    public var counts = Counters<ClavisCount>()
    public var weeks: [LockWeek] = []
    /// The person's scans by cell (empty until the first scan).
    public var scans: [ScanCell] = []
    public var observedDays = 0
    /// The last week in which the person was locked (counted once a week).
    var lastLockedWeek = -1
    public init() {}

    /// The week of day `d`, created on first use.
    mutating func week(_ d: Int) -> Int {
        let w = max(0, d) / 7
        while weeks.count <= w { weeks.append(LockWeek()) }
        return w
    }

    /// One scan with its ground truth: a false reject is the real key not matched, a false accept a look-alike matched.
    mutating func recordScan(_ kind: ScanKind, _ light: Lighting, _ object: ClavisAdapter.ScanObject, matched: Bool, falseAccept: Bool,
                             seconds: Double, day: Int) {
        if scans.isEmpty { scans = Array(repeating: ScanCell(), count: ScanCell.count) }
        let i = ScanCell.index(kind, light, lookAlike: object == .lookAlike)
        let ms = Int((seconds * 1000).rounded())
        scans[i].attempts += 1
        scans[i].cameraMs += ms
        counts[.cameraMs] += ms
        if matched {
            scans[i].matches += 1
            scans[i].addMatch(seconds: seconds)
        } else if object == .genuine {
            scans[i].falseRejects += 1
        }
        if falseAccept || (matched && object == .lookAlike) { scans[i].falseAccepts += 1 }
    }
}

/// Clavis's figures over many people: its KPIs (`ClavisKPIs`), `scans.csv` and `lock-cycles.csv`. No money (the spec
/// has no pricing): no ledger, no revenue or forecast file (`RevenueModel.free`).
public struct ClavisMetrics: ProductMetrics {
    public var counts = Counters<ClavisCount>()
    public var weeks: [LockWeek] = []
    public var scans: [ScanCell] = Array(repeating: ScanCell(), count: ScanCell.count)
    public var people = 0

    public init() {}

    public mutating func add(_ t: ClavisTally) {
        counts.merge(t.counts)
        people += 1
        weeks.mergeDays(t.weeks)
        weeks.countPerson(observedDays: (t.observedDays + 6) / 7, at: \.people)
        for i in t.scans.indices { scans[i].merge(t.scans[i]) }
    }

    public mutating func merge(_ o: ClavisMetrics) {
        counts.merge(o.counts)
        people += o.people
        weeks.mergeDays(o.weeks)
        for i in o.scans.indices { scans[i].merge(o.scans[i]) }
    }

    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try counts.validate(b, at: "\(path).counts")
        try b.record(people: people, days: weeks.count, at: "\(path).weeks")
        try b.days(weeks, fields: LockWeek.fields, people: \.people, at: "\(path).weeks")
        if scans.count != ScanCell.count { throw AccumulatorInvalid("\(path).scans", "\(scans.count) cells; Clavis has \(ScanCell.count)") }
        for (i, c) in scans.enumerated() {
            try b.count(c.attempts, "\(path).scans[\(i)].attempts")
            try b.subset(c.matches, of: c.attempts, "attempts", "\(path).scans[\(i)].matches")
            try b.subset(c.falseRejects, of: c.attempts - c.matches, "attempts without a match", "\(path).scans[\(i)].false_rejects")
            try b.subset(c.falseAccepts, of: c.matches, "matches", "\(path).scans[\(i)].false_accepts")
            if !c.matchTimes.isEmpty && (c.matchTimes.count != ScanCell.bins || c.matchTimes.reduce(0, +) != c.matches) {
                throw AccumulatorInvalid("\(path).scans[\(i)].match_times", "\(c.matchTimes.reduce(0, +)) matches in the histogram, \(c.matches) counted")
            }
        }
    }

    /// Scans of the real key, over every kind and light: attempts and false rejects; look-alike scans and matches.
    var genuineScans: (attempts: Int, rejects: Int, lookAlikes: Int, accepts: Int) {
        var r = (0, 0, 0, 0)
        for (i, c) in scans.enumerated() {
            if i % 2 == 0 { r.0 += c.attempts; r.1 += c.falseRejects } else { r.2 += c.attempts; r.3 += c.falseAccepts }
        }
        return r
    }

    /// The descriptor's KPIs (`ClavisKPIs.definitions`), each by id.
    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        typealias C = Counters<ClavisCount>
        let c = counts, personDays = run.common[.personDays]
        let w = weeks.reduce(into: LockWeek()) { $0.merge($1) }
        let scansStarted = scans.reduce(0) { $0 + $1.attempts }, matched = scans.reduce(0) { $0 + $1.matches }
        let g = genuineScans
        let values: [String: Double] = [
            "lock_cycles_per_week": C.ratio(w.cyclesStarted * 7, personDays),
            "lock_cycle_hours": C.ratio(w.lockedMinutes, w.cyclesClosed) / 60,
            "temp_unlocks_per_cycle": C.ratio(w.temporaryUnlocks, w.cyclesStarted),
            "scans_per_lock_cycle": C.ratio(scansStarted, w.cyclesStarted),
            "scan_match_share": C.ratio(matched, scansStarted),
            "frames_to_match": C.ratio(c[.matchedFrames], c[.matchedScans]),
            "time_to_match_p50": pooledQuantile(0.5, lookAlike: false),
            "enrollment_completion_share": C.ratio(c[.enrolCompleted], c[.enrolStarted]),
            "bypass_share": C.ratio(w.focusOff + w.resets + w.replaced, w.cyclesStarted),
            "false_reject_share": C.ratio(g.rejects, g.attempts),
            "false_accept_share": C.ratio(g.accepts, g.lookAlikes),
            "camera_seconds_per_day": C.ratio(c[.cameraMs], personDays) / 1000,
            "engaged_retention_d7": c.ratio(.d7Engaged, .d7Eligible),
            "locked_retention_d7": c.ratio(.d7Locked, .d7Eligible),
            "onboarding_stalled_share": C.ratio(c[.onboardingStalled], people),
        ]
        return ClavisKPIs.definitions.map { d in
            guard let v = values[d.id] else { preconditionFailure("Clavis KPI \(d.id) has no value") }
            return (d, v)
        }
    }

    /// The time to match at quantile `q` over every cell of one object.
    func pooledQuantile(_ q: Double, lookAlike: Bool) -> Double {
        var pooled = ScanCell()
        for (i, c) in scans.enumerated() where (i % 2 == 1) == lookAlike { pooled.merge(c) }
        return pooled.seconds(atQuantile: q)
    }

    /// `scans.csv`: one row per scan kind × lighting × object; `scan-policy.csv`: the match policy's false rejects and
    /// false accepts over every scan, and the false rejects outside the dark (one row: a point of the sweep's
    /// trade-off curve); `lock-cycles.csv`: one row per
    /// week since install.
    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("scans.csv", header: ReportKeys.header + ["kind", "lighting", "object", "attempts", "matches", "false_rejects",
                                                                 "false_accepts", "match_share", "p50_seconds", "p90_seconds", "camera_seconds"]) { m, _, keys in
            var rows: [[CSVField]] = []
            for kind in ScanKind.allCases {
                for light in Lighting.allCases {
                    for lookAlike in [false, true] {
                        let c = m.scans[ScanCell.index(kind, light, lookAlike: lookAlike)]
                        rows.append(keys.fields + [.text(kind.rawValue), .text("\(light)"), .text(lookAlike ? "look_alike" : "key"),
                                                   .integer(Int64(c.attempts)), .integer(Int64(c.matches)), .integer(Int64(c.falseRejects)),
                                                   .integer(Int64(c.falseAccepts)),
                                                   .rate(Counters<ClavisCount>.ratio(c.matches, c.attempts)),
                                                   .value(c.seconds(atQuantile: 0.5)), .value(c.seconds(atQuantile: 0.9)),
                                                   .value(Double(c.cameraMs) / 1000)])
                    }
                }
            }
            return rows
        },
         MetricsReport("scan-policy.csv", header: ReportKeys.header + ["key_scans", "false_rejects", "false_reject_share", "look_alike_scans",
                                                                       "false_accepts", "false_accept_share", "p50_seconds", "p90_seconds",
                                                                       "camera_seconds", "lit_key_scans", "lit_false_rejects",
                                                                       "lit_false_reject_share"]) { m, _, keys in
            let g = m.genuineScans
            var key = ScanCell(), lit = ScanCell()
            for (i, c) in m.scans.enumerated() where i % 2 == 0 {
                key.merge(c)
                if (i / 2) % Lighting.allCases.count != Int(Lighting.dark.rawValue) { lit.merge(c) }
            }
            let camera = m.scans.reduce(0) { $0 + $1.cameraMs }
            let ratio = Counters<ClavisCount>.ratio
            return [keys.fields + [.integer(Int64(g.attempts)), .integer(Int64(g.rejects)), .rate(ratio(g.rejects, g.attempts)),
                                   .integer(Int64(g.lookAlikes)), .integer(Int64(g.accepts)), .rate(ratio(g.accepts, g.lookAlikes)),
                                   .value(key.seconds(atQuantile: 0.5)), .value(key.seconds(atQuantile: 0.9)), .value(Double(camera) / 1000),
                                   .integer(Int64(lit.attempts)), .integer(Int64(lit.falseRejects)), .rate(ratio(lit.falseRejects, lit.attempts))]]
        },
         MetricsReport("lock-cycles.csv", header: ReportKeys.header + ["week", "people"] + LockWeek.fields.map(\.0)) { m, _, keys in
            m.weeks.enumerated().map { i, w in keys.fields + ([i, w.people] + LockWeek.fields.map { $0.1(w) }).map { CSVField.integer(Int64($0)) } }
        }]
    }
}
