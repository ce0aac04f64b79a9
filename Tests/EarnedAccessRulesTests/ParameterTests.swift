import Testing
import RulesCore
@testable import EarnedAccessRules

@Suite("Earned Access parameters, catalogue and descriptor")
struct ParameterTests {
    @Test("Catalogue defaults build the defaults, which carry the seed's numbers (§0, §5, §6)")
    func defaults() {
        let d = EarnedAccessParameters(values: ParameterValues(defaultsOf: EarnedAccessParameters.catalogue))
        #expect(d == EarnedAccessParameters.defaults)
        #expect(d.trialDays == 7 && d.trialPlans == .annual)
        #expect(d.freeMaxApps == 3 && d.freeMaxModes == 1 && d.freeMaxUnlockMinutes == 5)
        #expect(d.dayBoundary == LocalTimeOfDay(hour: 4, minute: 0)! && d.carryoverMax == 10)
        #expect(d.streakFocusMinutes == 20 && d.streakHabits == 2)
        #expect(d.emergencyPerDay == 1 && d.emergencyWait == .seconds(60) && d.emergencyUnlockMinutes == 5)
        #expect(!d.lifetimeEnabled && d.lifetimePrice == Money(usd: 99.99))
        #expect(EarnedAccessParameters.creditDurations == [5, 15, 30])
    }

    @Test("Key paths are unique, dotted snake_case, documented, and every default is valid for its kind")
    func keyPaths() {
        let keys = EarnedAccessParameters.catalogue.map(\.keyPath)
        #expect(Set(keys).count == keys.count)
        for p in EarnedAccessParameters.catalogue {
            let ok = p.keyPath.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { seg in
                !seg.isEmpty && seg.first!.isLowercase && seg.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }
            }
            #expect(ok, "\(p.keyPath)")
            #expect(p.problem(with: p.defaultValue) == nil, "\(p.keyPath) default out of range")
            #expect(!p.summary.isEmpty, "\(p.keyPath) undocumented")
            switch p.source {
            case .seed(let file, let section): #expect(file == EarnedAccessEngine.seedFile && section.hasPrefix("§"), "\(p.keyPath)")
            case .assumption(let why): #expect(!why.isEmpty, "\(p.keyPath)")
            case .publication: Issue.record("\(p.keyPath): engine parameters cite the seed or an assumption")
            }
        }
        // Every key is documented in the folder's README.
        let readme = (try? String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/EarnedAccessRulesTests/ParameterTests.swift",
                                                                                with: "Sources/Products/EarnedAccess/Rules/README.md"), encoding: .utf8)) ?? ""
        for k in keys { #expect(readme.contains("`\(k)`"), "\(k) missing from Sources/Products/EarnedAccess/Rules/README.md") }
    }

    @Test("Prices: the defaults and the allowed ranges lie inside the seed's ranges (§5 Pricing suggestion)")
    func prices() {
        let cat = Dictionary(uniqueKeysWithValues: EarnedAccessParameters.catalogue.map { ($0.keyPath, $0) })
        #expect(cat["prices.monthly"]?.kind == .number(6.99...9.99))
        #expect(cat["prices.annual"]?.kind == .number(39.99...59.99))
        let d = EarnedAccessParameters.defaults
        #expect(d.monthlyPrice >= Money(usd: 6.99) && d.monthlyPrice <= Money(usd: 9.99) && d.monthlyPrice == Money(usd: 7.99))
        #expect(d.annualPrice >= Money(usd: 39.99) && d.annualPrice <= Money(usd: 59.99) && d.annualPrice == Money(usd: 49.99))
        #expect(cat["prices.monthly"]?.problem(with: .number(10.99)) != nil)
        #expect(cat["prices.annual"]?.problem(with: .number(29.99)) != nil)
    }

    @Test("The seed's silent spots are assumptions; its explicit numbers cite it")
    func sources() {
        let assumed = Set(EarnedAccessParameters.catalogue.filter(\.source.isAssumption).map(\.keyPath))
        for k in ["trial.plans", "prices.lifetime_enabled", "prices.lifetime", "tiers.max_shielded_apps", "paywall.placement", "focus.minutes_per_credit",
                  "focus.min_minutes", "focus.shields_apps", "habits.credits", "habits.credited_per_day", "streak.first_session_only",
                  "streak.bonus_credits", "modes.schedule_min_minutes", "modes.strict_cooldown_minutes", "unlock.credit_cost_per_minute",
                  "quest.breathing_seconds", "quest.unlock_minutes", "quest.max_per_day", "quest.copy_text_seconds", "quest.copy_text_enabled"] {
            #expect(assumed.contains(k), "\(k)")
        }
        for k in ["trial.days", "prices.monthly", "prices.annual", "tiers.free.max_apps", "tiers.free.max_modes", "day.boundary",
                  "credits.carryover_max", "streak.focus_minutes", "streak.habits", "emergency.per_day", "emergency.wait_seconds", "emergency.unlock_minutes"] {
            #expect(!assumed.contains(k), "\(k)")
        }
    }

    @Test("Descriptor: id, seed, funnel E0–E9, KPIs without targets, Free/Pro revenue with trial, inputs named")
    func descriptor() {
        let d = EarnedAccessEngine.descriptor
        #expect(d.id == "earned-access" && d.seedFile == "003_39dd72775d0311b4.txt")
        #expect(d.funnel.map(\.id) == (0...9).map { "E\($0)" })
        #expect(d.kpis.allSatisfy { !$0.hasTarget && $0.source != nil })
        #expect(Set(d.kpis.map(\.id)).count == d.kpis.count)
        #expect(d.revenue.planSegments == ["free", "pro"] && d.revenue.consumableSource == nil && d.revenue.trialDays == 7)
        #expect(d.revenue.subscriptionPeriodMonths == ["earnedaccess.pro.monthly": 1, "earnedaccess.pro.annual": 12])
        #expect(d.batteryBudgets.source?.isAssumption == true)
        #expect(d.parameters.count == EarnedAccessParameters.catalogue.count)
        for i in d.inputs { for k in i.parameters where !k.hasSuffix(".") { #expect(d.parameters.contains { $0.keyPath == k }, "\(k)") } }
    }

    @Test("A scenario override reaches the engine (2 emergencies a day)")
    func override() {
        var h = Harness(parameters: params(["emergency.per_day": .int(2)]))
        h.onboard(apps: [1, 2])
        for (k, a) in [(10, AppID(1)), (11, AppID(2))] {
            h.reachGate(a, at: h.at(0, k))
            h.send(.unlock(a, .emergency), at: h.at(0, k))
            h.run(until: h.at(0, k, 1))
            #expect(h.engine.grant(for: a, at: h.at(0, k, 1))?.method == .emergency)
        }
    }
}
