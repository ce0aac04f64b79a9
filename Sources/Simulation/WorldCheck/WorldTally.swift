import Reports
import RulesCore
import Stochastics

/// What one life records for the world check (`world-check.csv`) besides the counters every report shares: a few
/// integers per pickup and per day, and facts of the person's ledger. Folded into `WorldAccumulator`.
public struct PersonWorldFacts: Sendable {
    /// Pickups by local hour of day (lanes 0-23; inline, so counting a pickup allocates and checks nothing).
    /// The hour is the whole hours elapsed since local midnight: the wall-clock hour but on the two days a year
    /// the clocks change.
    public var pickupsByHour = SIMD32<Int32>()
    /// Pickups with an earlier session, and those of them starting within 3 min of its end (its actual end, or its
    /// intended one with `urges.pickup_follows_actual_session` = 0).
    public var pickupsAfterSession = 0, pickupsWithin3Min = 0
    /// Whole local days after the install day (closed by the day's end), and their pickups.
    public var weekdayDays = 0, weekdayPickups = 0, weekendDays = 0, weekendPickups = 0
    /// Per pickup the life only compares two instants (`pickup(at:sessionEnd:)`); pickups are binned by hour
    /// and day from the life's pickup counter when an hour or a day ends (`PersonLife.closeWorldHour`).
    /// The end of the last session (none yet: far in the past).
    var lastSessionEnd = Instant(millisecondsSinceEpoch: Int64.min / 2)
    /// The current local day's start, the current hour (0-23) and its end, and the life's pickup count when the
    /// hour and the day began.
    var todayStart = Instant.epoch
    var hour = 0
    var hourEnd = Instant.epoch
    var pickupsAtHourStart = 0, pickupsAtDayStart = 0

    /// Counts a pickup at `t`; its session's end is booked by `sessionEnded(at:)` (`PersonLife.bookSession`).
    @inline(__always) mutating func pickup(at t: Instant) {
        if t - lastSessionEnd <= .minutes(3) { pickupsWithin3Min += 1 }
    }

    /// The session of the last pickup actually ended at `t` (`urges.pickup_follows_actual_session`).
    @inline(__always) mutating func sessionEnded(at t: Instant) { lastSessionEnd = t }

    /// Books the pickups of the hour now ending (the life has counted `pickups` so far) and makes the hour
    /// containing `t` current; `dayStart` starts a new local day.
    mutating func closeHour(pickups: Int, at t: Instant, dayStart: Instant? = nil) {
        pickupsByHour[hour] &+= Int32(truncatingIfNeeded: pickups - pickupsAtHourStart)
        pickupsAtHourStart = pickups
        if let dayStart { todayStart = dayStart; pickupsAtDayStart = pickups }
        let k = Int((t - todayStart).milliseconds / 3_600_000)
        hour = min(23, max(0, k))
        hourEnd = k >= 23 ? Instant(millisecondsSinceEpoch: Int64.max / 2) : todayStart + .hours(Int64(k + 1))
    }
    /// Days to 95 % and decay level-off days of the person's habits (scrolling, resisting).
    /// (Zero: the person did not install inside the horizon.)
    public var habitDaysTo95 = SIMD2<Double>()
    public var habitLevelOffDays = SIMD2<Double>()
    /// Install-day index (0 = install day) of the first charge, first subscription charge, last subscription
    /// charge and trial start.
    public var firstChargeDay: Int?
    public var firstSubscriptionDay: Int?
    public var firstSubscriptionMonths = 0
    public var lastSubscriptionChargeDay: Int?
    public var trialStartDay: Int?
    /// A subscription charge followed a trial start.
    public var convertedAfterTrial = false
    /// Gross less refunds and upgrade credits in install days 0-13.
    public var revenueFirst14Days = Money.zero
    /// Charges (purchases, renewals, consumables) and refunds.
    public var charges = 0, refunds = 0

    public init() {}

    /// Books a ledger line on install day `day`; `periodMonths` is the SKU's billing period (0 unknown).
    public mutating func book(_ e: LedgerEntry, day: Int, periodMonths: Int) {
        switch e.kind {
        case .trialStart:
            if trialStartDay == nil { trialStartDay = day }
        case .serviceCost:
            break   // what the product pays, not what its people pay: no published figure reads it
        case .refund:
            refunds += 1
            if day < 14 { revenueFirst14Days = revenueFirst14Days - Money(micros: abs(e.amount.micros)) }
        case .upgradeProration:
            if day < 14 { revenueFirst14Days = revenueFirst14Days + e.amount }
        case .subscriptionPurchase, .subscriptionRenewal, .consumablePurchase:
            charges += 1
            if firstChargeDay == nil { firstChargeDay = day }
            if day < 14 { revenueFirst14Days = revenueFirst14Days + e.amount }
            guard e.kind != .consumablePurchase else { return }
            if firstSubscriptionDay == nil {
                firstSubscriptionDay = day
                firstSubscriptionMonths = periodMonths
                if trialStartDay != nil { convertedAfterTrial = true }
            }
            lastSubscriptionChargeDay = day
        }
    }
}

/// The keys of the world check's counters (sums over people).
public enum WorldCount: Int, CounterKey {
    case pickupsAfterSession, pickupsWithin3Min, weekdayDays, weekdayPickups, weekendDays, weekendPickups
    case habits, habitsLevelledBy65Days
    /// People observable 35 days after install, and those with a first charge in days 0-34.
    case observed35Days, paidBy35Days
    /// People observable 14 days after install, and their revenue in days 0-13 (micro-dollars).
    case observed14Days, revenueFirst14DaysMicros
    case trialStarts, trialStartsOnInstallDay, trialsEnded, trialsConverted
    case monthlyFirstRenewalsDue, monthlyFirstRenewed, monthly12mDue, monthly12mRetained, annual12mDue, annual12mRetained
    case charges, refunds

    /// Each a count of people (one a life, two habits a life) or a subset of one, but the pickups, days, charges
    /// and refunds (per-person-day counts) and the first 14 days' revenue (micro-dollars, negative with refunds).
    public var bound: CounterBound<WorldCount> {
        switch self {
        case .pickupsAfterSession, .pickupsWithin3Min, .weekdayDays, .weekdayPickups, .weekendDays, .weekendPickups, .charges, .refunds, .habits:
            .perPersonDay
        case .revenueFirst14DaysMicros: .signedMicros
        case .habitsLevelledBy65Days: .atMost(.habits)
        case .paidBy35Days: .atMost(.observed35Days)
        case .trialStartsOnInstallDay, .trialsEnded: .atMost(.trialStarts)
        case .trialsConverted: .atMost(.trialsEnded)
        case .monthlyFirstRenewed: .atMost(.monthlyFirstRenewalsDue)
        case .monthly12mRetained: .atMost(.monthly12mDue)
        case .annual12mRetained: .atMost(.annual12mDue)
        case .observed35Days, .observed14Days, .trialStarts, .monthlyFirstRenewalsDue, .monthly12mDue, .annual12mDue: .people
        }
    }
}

/// The world check's figures of one arm and replication, folded from people (Mergeable, exact in any grouping:
/// integer counts and a fixed-point histogram).
public struct WorldAccumulator: Mergeable, Sendable, Codable {
    public var counts = Counters<WorldCount>()
    public var pickupsByHour = [Int](repeating: 0, count: 24)
    public var habitDaysTo95 = LogHistogram()
    /// The product's trial length (its descriptor's), kept here so folding a life reads no descriptor.
    public var trialDays: Int?

    public init(trialDays: Int? = nil) { self.trialDays = trialDays }

    /// Folds one life in; `observedDays` = local days from the install day to the horizon; `trialDays` the
    /// product's trial length.
    public mutating func add(_ f: PersonWorldFacts, observedDays: Int, trialDays: Int?) {
        for h in 0..<24 { pickupsByHour[h] += Int(f.pickupsByHour[h]) }
        // Straight into the run's counters: no per-person allocation.
        counts[.pickupsAfterSession] += f.pickupsAfterSession
        counts[.pickupsWithin3Min] += f.pickupsWithin3Min
        counts[.weekdayDays] += f.weekdayDays; counts[.weekdayPickups] += f.weekdayPickups
        counts[.weekendDays] += f.weekendDays; counts[.weekendPickups] += f.weekendPickups
        for i in 0..<2 where f.habitDaysTo95[i] > 0 { habitDaysTo95.add(f.habitDaysTo95[i]) }
        for i in 0..<2 where f.habitLevelOffDays[i] > 0 {
            counts[.habits] += 1
            if f.habitLevelOffDays[i] <= 65 { counts[.habitsLevelledBy65Days] += 1 }
        }
        if observedDays >= 35 {
            counts[.observed35Days] += 1
            if let d = f.firstChargeDay, d < 35 { counts[.paidBy35Days] += 1 }
        }
        if observedDays >= 14 {
            counts[.observed14Days] += 1
            counts[.revenueFirst14DaysMicros] += Int(f.revenueFirst14Days.micros)
        }
        if let t = f.trialStartDay {
            counts[.trialStarts] += 1
            if t == 0 { counts[.trialStartsOnInstallDay] += 1 }
            if let len = trialDays, observedDays > t + len {
                counts[.trialsEnded] += 1
                if f.convertedAfterTrial { counts[.trialsConverted] += 1 }
            }
        }
        if let first = f.firstSubscriptionDay, let last = f.lastSubscriptionChargeDay {
            if f.firstSubscriptionMonths == 1 {
                if observedDays > first + 31 {
                    counts[.monthlyFirstRenewalsDue] += 1
                    if last - first >= 27 { counts[.monthlyFirstRenewed] += 1 }
                }
                if observedDays > first + 366 {
                    counts[.monthly12mDue] += 1
                    if last - first >= 360 { counts[.monthly12mRetained] += 1 }
                }
            } else if f.firstSubscriptionMonths == 12, observedDays > first + 366 {
                counts[.annual12mDue] += 1
                if last - first >= 360 { counts[.annual12mRetained] += 1 }
            }
        }
        counts[.charges] += f.charges
        counts[.refunds] += f.refunds
    }

    public mutating func merge(_ o: WorldAccumulator) {
        counts.merge(o.counts)
        for h in 0..<24 { pickupsByHour[h] += o.pickupsByHour[h] }
        habitDaysTo95.merge(o.habitDaysTo95)
    }
}

extension RunAccumulator {
    /// This replication's reading of every world-check figure (`WorldFigures.all`), from the same accumulators that
    /// feed the other reports: pickups and sessions (`common`), app-opened retention (`retention`), the world
    /// check's own counters (`world`); `horizonDays` is the run's.
    public func worldMeasurements(horizonDays h: Int) -> [String: WorldMeasurement] {
        let revenue = Adapter.Engine.descriptor.revenue
        let w = world.counts
        var m: [String: WorldMeasurement] = [:]
        func needs(_ days: Int) -> String? { RunLength.shortfall(needs: days, horizonDays: h) }
        let noDays = "no person-day observed"
        // Every person-day from install to the horizon, its last day included (issue 28).
        let neutral = comparison.all
        m["unlocks_per_day"] = neutral.personDays > 0 ? .value(Double(neutral.pickups) / Double(neutral.personDays)) : .notApplicable(noDays)
        m["sessions_under_30s_share"] = .share(common[.sessionsUnder30s], of: common[.sessions], else: "no phone session")
        m["pickups_within_3min_share"] = .share(w[.pickupsWithin3Min], of: w[.pickupsAfterSession], else: "no pickup after an earlier session")
        m["notification_session_share"] = .share(common[.notificationSessions], of: common[.sessions], else: "no phone session")
        let hours = world.pickupsByHour
        if let peak = hours.max(), peak > 0 {
            m["peak_hour"] = .value(Double(hours.firstIndex(of: peak)!))
            m["night_to_peak_ratio"] = .value(Double(hours[3] + hours[4]) / 2 / Double(peak))
        } else {
            m["peak_hour"] = .notApplicable("no pickup"); m["night_to_peak_ratio"] = .notApplicable("no pickup")
        }
        if w[.weekendDays] > 0 && w[.weekdayDays] > 0 {
            let weekend = Double(w[.weekendPickups]) / Double(w[.weekendDays]), weekday = Double(w[.weekdayPickups]) / Double(w[.weekdayDays])
            m["weekend_uplift"] = weekday > 0 ? .value(weekend / weekday - 1) : .notApplicable("no weekday pickup")
        } else {
            m["weekend_uplift"] = .notApplicable("needs a whole weekend day and weekday after install; run has \(h) days")
        }
        if let median = habitDaysTo95Median, let mean = world.habitDaysTo95.mean, median > 0 {
            m["habit_days_to_95_median"] = .value(median)
            m["habit_days_to_95_mean_over_median"] = .value(mean / median)
        } else {
            m["habit_days_to_95_median"] = .notApplicable("no person installed"); m["habit_days_to_95_mean_over_median"] = .notApplicable("no person installed")
        }
        m["habit_decay_levelled_by_65d_share"] = .share(w[.habitsLevelledBy65Days], of: w[.habits], else: "no person installed")
        let noApp = "no app (the untreated life, `none`)"
        for d in [1, 7, 14, 30] {
            if !Adapter.hasApp { m["retention_d\(d)"] = .notApplicable(noApp); continue }
            if let reason = needs(d + 1) { m["retention_d\(d)"] = .notApplicable(reason); continue }
            let c = retention.counts(activity: .appOpened, day: d)
            m["retention_d\(d)"] = .share(c?.active ?? 0, of: c?.eligible ?? 0, else: "nobody observable on day \(d)")
        }
        let sellsNothing = "product sells nothing", noSubscription = "product sells no subscription"
        m["download_to_paid_d35"] = !revenue.sellsAnything ? .notApplicable(sellsNothing)
            : needs(35).map { .notApplicable($0) } ?? .share(w[.paidBy35Days], of: w[.observed35Days], else: "no install observable for 35 days")
        if !revenue.sellsSubscriptions {
            m["trial_to_paid"] = .notApplicable(noSubscription); m["trial_start_install_day_share"] = .notApplicable(noSubscription)
        } else if !revenue.offersTrial {
            m["trial_to_paid"] = .notApplicable("no trials offered"); m["trial_start_install_day_share"] = .notApplicable("no trials offered")
        } else {
            m["trial_to_paid"] = .share(w[.trialsConverted], of: w[.trialsEnded], else: "no trial ended inside the run")
            m["trial_start_install_day_share"] = .share(w[.trialStartsOnInstallDay], of: w[.trialStarts], else: "no trial started")
        }
        let periods = Set(revenue.subscriptionPeriodMonths.values)
        func subscription(_ id: String, months: Int, days: Int, _ k: WorldCount, _ n: WorldCount, none: String) {
            if !revenue.sellsSubscriptions { m[id] = .notApplicable(noSubscription) }
            else if !periods.contains(months) { m[id] = .notApplicable("product sells no \(months == 1 ? "monthly" : "annual") subscription") }
            else if let reason = needs(days) { m[id] = .notApplicable(reason) }
            else { m[id] = .share(w[k], of: w[n], else: none) }
        }
        subscription("first_monthly_renewal", months: 1, days: 32, .monthlyFirstRenewed, .monthlyFirstRenewalsDue,
                     none: "no monthly subscription reached its first renewal inside the run")
        subscription("monthly_12m_retention", months: 1, days: 367, .monthly12mRetained, .monthly12mDue,
                     none: "no monthly subscription reached 12 months inside the run")
        subscription("annual_12m_retention", months: 12, days: 367, .annual12mRetained, .annual12mDue,
                     none: "no annual subscription reached 12 months inside the run")
        m["refund_share"] = !revenue.sellsAnything ? .notApplicable("no refunds possible (product sells nothing)")
            : .share(w[.refunds], of: w[.charges], else: "no transactions in the run")
        m["revenue_per_install_d14_usd"] = !revenue.sellsAnything ? .notApplicable(sellsNothing)
            : needs(14).map { .notApplicable($0) }
            ?? (w[.observed14Days] > 0 ? .value(Double(w[.revenueFirst14DaysMicros]) / 1_000_000 / Double(w[.observed14Days]))
                                       : .notApplicable("no install observable for 14 days"))
        var opens: Int64 = 0, untreated: Int64 = 0
        for week in 1...3 {
            let t = learning.totals(week: week, status: .active)
            opens += t.acted
            untreated += t.untreatedUrgeMillionths
        }
        // Only a product that restricts apps can reduce their opens by blocking them (the figure's sources are
        // blockers); Nudge restricts none (issue 39 item 5, audit A5): not applicable, said so in the row.
        m["target_app_opens_reduction_weeks_1_3"] = !Adapter.hasApp ? .notApplicable(noApp)
            : !Adapter.restrictsApps ? .notApplicable("product restricts no app")
            : needs(22).map { .notApplicable($0) }
            ?? (untreated > 0 ? .value(1 - Double(opens) * 1_000_000 / Double(untreated))
                              : .notApplicable("nobody used the product in weeks 1-3"))
        return m
    }

    /// The median of the habits' days to 95 % (nil when empty).
    var habitDaysTo95Median: Double? { world.habitDaysTo95.quantile(0.5) }
}
