import Testing
import RulesCore
@testable import ClavisRules

/// The product as data: seed 004's identity, its parameters with sources, the funnel, no money, no battery budget.
@Suite("Clavis descriptor")
struct DescriptorTests {
    @Test("the descriptor names the seed, a free revenue model, no battery budget and the funnel C0–C7")
    func descriptor() {
        let d = ClavisEngine.descriptor
        #expect(d.id == "clavis" && Product.clavis.rawValue == "clavis")
        #expect(d.name == "Clavis" && d.seedFile == "004_8fa1e69c755a74b3.txt")
        #expect(d.reports == ["scans.csv", "scan-policy.csv", "lock-cycles.csv"], "the person side writes them")
        #expect(d.revenue == .free && !d.revenue.sellsAnything && !d.revenue.incursCosts)
        #expect(!d.kpis.contains { $0.unit == "usd" }, "no money KPI")
        #expect(d.batteryBudgets == .none, "the spec states no battery budget")
        #expect(d.funnel.map(\.id) == ["C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7"])
        #expect(d.funnel.map(\.name) == ["App opened", "First mode created", "Main key enrolled", "Focus configured", "Onboarding done",
                                         "First lock", "First unlock with the key", "Three lock cycles on three days"])
        // False accepts and rejects are the simulator's ground truth (the engine cannot tell a look-alike): their KPIs say so.
        for id in ["false_reject_share", "false_accept_share"] {
            #expect(d.kpis.first { $0.id == id }?.formula.contains("ground truth") == true, "\(id)")
        }
    }

    @Test("every parameter has a range, a default inside it and a source citing the seed or marked as an assumption")
    func parameters() {
        let c = ClavisParameters.catalogue
        #expect(Set(c.map(\.keyPath)).count == c.count)
        for p in c {
            #expect(p.problem(with: p.defaultValue) == nil, "\(p.keyPath)")
            switch p.source {
            case .seed(let file, let section): #expect(file == ClavisEngine.seedFile && section.hasPrefix("§"), "\(p.keyPath)")
            case .assumption(let why): #expect(why.contains("§"), "\(p.keyPath): an assumption cites the spec it reads")
            case .publication: Issue.record("\(p.keyPath) cites a publication")
            }
        }
        let d = ClavisParameters.defaults
        #expect(d.threshold == 0.90 && d.consecutiveFrames == 3 && d.enrolMinFrames == 8 && d.enrolMaxFrames == 12)
        #expect(d.verifyMaxFPS == 10 && d.enrolMaxFPS == 5 && d.temporaryUnlockMinutes == 15)
        #expect(d.switchWhileLocked == .refuse && !d.editWhileLocked && d.replaceKeyWhileLocked && d.deleteDataWhileLocked)
        // §5.1, §5.2 and §7 Error Handling's inputs, each sent by the simulated people.
        for name in ["cameraPermission", "deviceChecked", "renameKey", "removeKey", "removeTemporaryKey"] {
            #expect(ClavisEngine.descriptor.inputs.first { $0.name == name }?.drivenBySimulatedPeople == true, "\(name)")
        }
        for input in ClavisEngine.descriptor.inputs {
            for key in input.parameters { #expect(c.contains { input.governs($0.keyPath) }, "\(input.name) governs \(key), not in the catalogue") }
        }
    }

    @Test("the funnel: each stage from its event; C7 needs locks on three distinct days within a week")
    func funnel() {
        let t0 = Instant(secondsSinceEpoch: 1_800_000_000)
        let events: [(Instant, ClavisEvent)] = [
            (t0, .appOpened(day: 0)), (t0, .modeCreated(1, apps: 3)),
            (t0, .enrolmentCompleted(1, .temporary, frames: 8, viewpoints: 4, manual: false)),
            (t0, .enrolmentCompleted(2, .main, frames: 8, viewpoints: 4, manual: false)),
            (t0, .focusConfigured(ok: false)), (t0, .focusConfigured(ok: true)),
            (t0, .onboardingStepCompleted(.complete)),
            (t0 + .hours(1), .modeLocked(1, cycle: 1, day: 0)), (t0 + .hours(2), .modeUnlocked(1, cycle: 1, minutes: 60)),
            (t0 + .hours(3), .modeLocked(1, cycle: 2, day: 0)), (t0 + .hours(26), .modeLocked(1, cycle: 3, day: 1)),
        ]
        #expect(ClavisFunnel.Tracker.reached(events) == [true, true, true, true, true, true, true, false])
        #expect(ClavisFunnel.Tracker.reached(events + [(t0 + .days(5), .modeLocked(1, cycle: 4, day: 5))]) == Array(repeating: true, count: 8))
        #expect(ClavisFunnel.Tracker.reached(events + [(t0 + .days(8), .modeLocked(1, cycle: 4, day: 8))]).last == false, "7 days from C0")
    }
}

@Suite("Clavis parameters documented")
struct ParameterDocumentationTests {
    @Test("every parameter is documented in the Rules README; the spec's silent spots are assumptions")
    func documented() {
        let readme = (try? String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/ClavisRulesTests/DescriptorTests.swift",
                                                                                with: "Sources/Products/Clavis/Rules/README.md"), encoding: .utf8)) ?? ""
        for p in ClavisParameters.catalogue {
            #expect(readme.contains("`\(p.keyPath)`"), "\(p.keyPath) missing from the Rules README")
        }
        let assumed = Set(ClavisParameters.catalogue.filter(\.source.isAssumption).map(\.keyPath))
        #expect(assumed == ["verify.rejected_frame_breaks_run", "frames.min_points", "frames.min_volume_cm3", "frames.max_volume_cm3",
                            "frames.reject_limited_motion", "enrolment.min_viewpoints", "enrolment.manual_min_frames",
                            "enrolment.distinctiveness_warn_below", "modes.max", "keys.max_temporary_per_mode", "temporary.unlock_minutes",
                            "modes.switch_while_locked", "modes.edit_while_locked", "keys.replace_while_locked", "data.delete_while_locked",
                            "onboarding.apps_before_key"])
    }
}
