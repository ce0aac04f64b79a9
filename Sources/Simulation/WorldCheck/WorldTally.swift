import Reports
import RulesCore
import Stochastics

/// What one life records for the world check (`world-check.csv`) besides the counters every report shares: a few
/// integers per pickup and per day, and facts of the person's ledger. Folded into `WorldAccumulator`.
public struct PersonWorldFacts: Sendable {
    /// Pickups by local hour of day.
    public var pickupsByHour = [Int](repeating: 0, count: 24)
    /// Pickups with an earlier session, and those of them starting within 3 min of its (intended) end.
    public var pickupsAfterSession = 0, pickupsWithin3Min = 0
    /// Whole local days after the install day (closed by the day's end), and their pickups.
    public var weekdayDays = 0, weekdayPickups = 0, weekendDays = 0, weekendPickups = 0
    /// The intended end of the last session, and today's pickups.
    var lastSessionEnd: Instant?
    var todayPickups = 0
    /// Days to 95 % and decay level-off days of the person's habits (scrolling, resisting).
    public var habitDaysTo95: [Double] = []
    public var habitLevelOffDays: [Double] = []
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
}

/// The world check's figures of one arm and replication, folded from people (Mergeable, integer-exact but for
/// the habit histogram, which the runner folds in block order).
public struct WorldAccumulator: Mergeable, Sendable {
    public var counts = Counters<WorldCount>()
    public var pickupsByHour = [Int](repeating: 0, count: 24)
    public var habitDaysTo95 = LogHistogram()

    public init() {}

    /// Folds one life in; `observedDays` = local days from the install day to the horizon; `trialDays` the
    /// product's trial length.
    public mutating func add(_ f: PersonWorldFacts, observedDays: Int, trialDays: Int?) {
        for h in 0..<24 { pickupsByHour[h] += f.pickupsByHour[h] }
        var c = Counters<WorldCount>()
        c[.pickupsAfterSession] = f.pickupsAfterSession
        c[.pickupsWithin3Min] = f.pickupsWithin3Min
        c[.weekdayDays] = f.weekdayDays; c[.weekdayPickups] = f.weekdayPickups
        c[.weekendDays] = f.weekendDays; c[.weekendPickups] = f.weekendPickups
        for d in f.habitDaysTo95 { habitDaysTo95.add(d) }
        c[.habits] = f.habitLevelOffDays.count
        c[.habitsLevelledBy65Days] = f.habitLevelOffDays.filter { $0 <= 65 }.count
        if observedDays >= 35 {
            c[.observed35Days] = 1
            if let d = f.firstChargeDay, d < 35 { c[.paidBy35Days] = 1 }
        }
        if observedDays >= 14 {
            c[.observed14Days] = 1
            c[.revenueFirst14DaysMicros] = Int(f.revenueFirst14Days.micros)
        }
        if let t = f.trialStartDay {
            c[.trialStarts] = 1
            if t == 0 { c[.trialStartsOnInstallDay] = 1 }
            if let len = trialDays, observedDays > t + len {
                c[.trialsEnded] = 1
                if f.convertedAfterTrial { c[.trialsConverted] = 1 }
            }
        }
        if let first = f.firstSubscriptionDay, let last = f.lastSubscriptionChargeDay {
            if f.firstSubscriptionMonths == 1 {
                if observedDays > first + 31 {
                    c[.monthlyFirstRenewalsDue] = 1
                    if last - first >= 27 { c[.monthlyFirstRenewed] = 1 }
                }
                if observedDays > first + 366 {
                    c[.monthly12mDue] = 1
                    if last - first >= 360 { c[.monthly12mRetained] = 1 }
                }
            } else if f.firstSubscriptionMonths == 12, observedDays > first + 366 {
                c[.annual12mDue] = 1
                if last - first >= 360 { c[.annual12mRetained] = 1 }
            }
        }
        c[.charges] = f.charges
        c[.refunds] = f.refunds
        counts.merge(c)
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
        func needs(_ days: Int) -> String? { h < days ? "needs \(days) days; run has \(h)" : nil }
        let noDays = "no person-day observed"
        m["unlocks_per_day"] = common[.personDays] > 0 ? .value(common.ratio(.pickups, .personDays)) : .notApplicable(noDays)
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
        for d in [1, 7, 14, 30] {
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
        return m
    }

    /// The median of the habits' days to 95 % (nil when empty).
    var habitDaysTo95Median: Double? { world.habitDaysTo95.quantile(0.5) }
}
