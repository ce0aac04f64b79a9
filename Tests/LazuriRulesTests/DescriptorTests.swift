import Testing
import RulesCore
@testable import LazuriRules

/// The product as data: seed 002's identity, its parameters with sources, the funnel, no money.
@Suite("Lazuri descriptor")
struct DescriptorTests {
    @Test("the descriptor names the seed, the reports, a free revenue model and the funnel L0–L6")
    func descriptor() {
        let d = LazuriEngine.descriptor
        #expect(d.id == "lazuri" && Product.lazuri.rawValue == "lazuri")
        #expect(d.name == "Lazuri" && d.seedFile == "002_80c8c6af1a4e5690.txt")
        #expect(d.reports == ["focus.csv", "cards.csv", "study.csv"])
        #expect(d.revenue == .free && !d.revenue.sellsAnything && !d.revenue.incursCosts)
        #expect(!d.kpis.contains { $0.unit == "usd" }, "no money KPI")
        #expect(d.funnel.map(\.id) == ["L0", "L1", "L2", "L3", "L4", "L5", "L6"])
        #expect(d.funnel.map(\.name) == ["App opened", "Screen Time granted", "Apps or categories selected", "Schedule created",
                                         "Schedule enabled", "First block", "First completed window"])
    }

    @Test("every parameter has a range, a default inside it and a source citing the seed or marked as an assumption")
    func parameters() {
        let c = LazuriParameters.catalogue
        #expect(Set(c.map(\.keyPath)).count == c.count)
        for p in c {
            #expect(p.problem(with: p.defaultValue) == nil, "\(p.keyPath)")
            switch p.source {
            case .seed(let file, let section): #expect(file == LazuriEngine.seedFile && section.hasPrefix("§"), "\(p.keyPath)")
            case .assumption(let why): #expect(why.contains("§"), "\(p.keyPath): an assumption cites the thesis it reads")
            case .publication: Issue.record("\(p.keyPath) cites a publication")
            }
        }
        let d = LazuriParameters.defaults
        #expect(d.minWindowMinutes == 15 && d.maxEnabledSchedules == 1 && d.promiseMaxCharacters == 900 && d.deckSize == 100)
        #expect(d.achievementCards == [5, 10, 25, 50, 75, 100] && d.achievementPoints == [10, 15, 25, 40, 60, 80])
        #expect(d.achievementPoints.reduce(0, +) == 230)
        #expect(d.honourWeekdays && d.activeMeaning == .enabled && d.midWindowSwitchOff == .lift && d.screenTimeAsk == .focusTab)
        for input in LazuriEngine.descriptor.inputs {
            for key in input.parameters { #expect(c.contains { input.governs($0.keyPath) }, "\(input.name) governs \(key), not in the catalogue") }
        }
    }

    @Test("the funnel: each stage from its event, a completed window activates")
    func funnel() {
        let t0 = Instant(secondsSinceEpoch: 1_800_000_000)
        let events: [(Instant, LazuriEvent)] = [
            (t0, .appOpened(day: 0)), (t0, .screenTimePermissionResult(granted: true)),
            (t0, .selectionUpdated(apps: 0, categories: 0, domains: 2)),
            (t0, .selectionUpdated(apps: 1, categories: 0, domains: 0)),
            (t0, .scheduleCreated(1, durationMinutes: 60, crossesMidnight: false, days: .everyDay)),
            (t0, .scheduleEnabled(1)), (t0 + .hours(30), .blockStarted(1)),
            (t0 + .hours(30), .blockEnded(1, outcome: .interrupted, minutes: 0)),
        ]
        #expect(LazuriFunnel.Tracker.reached(events) == [true, true, true, true, true, true, false])
        #expect(LazuriFunnel.Tracker.reached(events + [(t0 + .hours(47), .blockEnded(1, outcome: .completed, minutes: 60))]) == Array(repeating: true, count: 7))
        #expect(LazuriFunnel.Tracker.reached(events + [(t0 + .hours(49), .blockEnded(1, outcome: .completed, minutes: 60))]).last == false,
                "48 hours from L0")
    }
}

@Suite("Lazuri parameters documented")
struct ParameterDocumentationTests {
    @Test("every parameter is documented in the Rules README; the thesis's silent spots are assumptions")
    func documented() {
        let readme = (try? String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/LazuriRulesTests/DescriptorTests.swift",
                                                                                with: "Sources/Products/Lazuri/Rules/README.md"), encoding: .utf8)) ?? ""
        for p in LazuriParameters.catalogue where !p.keyPath.hasPrefix("achievements.") {
            #expect(readme.contains("`\(p.keyPath)`"), "\(p.keyPath) missing from the Rules README")
        }
        #expect(readme.contains("`achievements.tier1.cards`") && readme.contains("`achievements.tier6.points`"))
        let assumed = Set(LazuriParameters.catalogue.filter(\.source.isAssumption).map(\.keyPath))
        #expect(assumed == ["schedules.max_saved", "schedules.honour_weekdays", "schedules.active_means", "schedules.switch_off_mid_window",
                            "permissions.screen_time_ask", "permissions.notifications_at_first_enable", "cards.wrap_at_ends"])
    }
}
