import Foundation
import Testing

/// `habitat sensitivity`, `habitat calibrate --plausible` and `habitat run --robustness` end to end (issue 45), at
/// sizes a test affords: the statements are about exact zeros (common random numbers), layouts and a planted truth.
@Suite("habitat sensitivity, plausible sets and robustness", .serialized)
struct SensitivityCommandTests {
    static let priceTest = CLIProcess.packageRoot.appendingPathComponent("Scenarios/premium-price-test.yaml").path
    static let baseline = CLIProcess.packageRoot.appendingPathComponent("Scenarios/scroll-off-baseline.yaml").path
    static let small = ["--people", "120", "--days", "21", "--replications", "2", "--progress", "never"]
    /// A Clavis parameter: a Scroll Off world never reads it.
    static let unread = "behavior.clavis.go_home_constant"

    static func csv(_ url: URL) throws -> (header: [String], rows: [[String]]) {
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        return (lines[0].components(separatedBy: ","), lines.dropFirst().map { $0.components(separatedBy: ",") })
    }

    static func column(_ t: (header: [String], rows: [[String]]), _ name: String) -> [String] {
        let i = t.header.firstIndex(of: name)!
        return t.rows.map { $0[i] }
    }

    @Test("Morris on a price test: a parameter no Scroll Off person reads gets μ* of exactly 0 on every output; the churn hazard does not")
    func unreadParameterIsZero() throws {
        let out = CLIProcess.tempDir().appendingPathComponent("s")
        let r = try CLIProcess.run(["sensitivity", Self.priceTest] + Self.small + ["--params", "behavior.churn.base_hazard", Self.unread,
                                    "--span", "0.5", "--samples", "3", "--kpis", "retention_d7", "net_revenue_usd", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("2 parameter(s), Morris, 3 trajectories on 4 levels, 9 design point(s)"))
        let t = try Self.csv(out.appendingPathComponent("sensitivity.csv"))
        #expect(t.header.prefix(8) == ["scenario", "arm", "replication", "product", "quantity", "kpi", "unit", "control_arm"])
        let params = Self.column(t, "parameter"), muStar = Self.column(t, "mu_star"), quantity = Self.column(t, "quantity"), kpi = Self.column(t, "kpi")
        #expect(Set(quantity) == ["arm_mean", "world_figure", "paired_diff"])
        for (i, p) in params.enumerated() where p == Self.unread { #expect(Double(muStar[i]) == 0, "row \(i): \(t.rows[i])") }
        let hazardOnRetention = params.indices.filter { params[$0] == "behavior.churn.base_hazard" && kpi[$0] == "retention_d7" && quantity[$0] == "world_figure" }
        #expect(!hazardOnRetention.isEmpty && hazardOnRetention.allSatisfy { Double(muStar[$0])! > 0 })
        // The design file: 9 points, both parameters, the unread one varied over its ±50 % span.
        let d = try Self.csv(out.appendingPathComponent("sensitivity-design.csv"))
        #expect(d.rows.count == 9 && d.header.prefix(4) == ["point", "role", "behavior.churn.base_hazard", Self.unread])
    }

    @Test("Sobol on a scenario: the unread parameter's first-order and total indices are exactly 0")
    func sobolUnreadIsZero() throws {
        let out = CLIProcess.tempDir().appendingPathComponent("s")
        let r = try CLIProcess.run(["sensitivity", Self.baseline, "--people", "80", "--days", "14", "--replications", "1", "--progress", "never",
                                    "--params", "behavior.churn.base_hazard", Self.unread, "--span", "0.5", "--method", "sobol", "--samples", "8",
                                    "--kpis", "retention_d7", "--resamples", "50", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try Self.csv(out.appendingPathComponent("sensitivity.csv"))
        let params = Self.column(t, "parameter"), st = Self.column(t, "st"), s1 = Self.column(t, "s1"), hi = Self.column(t, "st_ci_high")
        for i in params.indices where params[i] == Self.unread {
            #expect(Double(st[i]) == 0 && Double(s1[i]) == 0 && Double(hi[i]) == 0)
        }
        #expect(params.indices.contains { params[$0] == "behavior.churn.base_hazard" && Double(st[$0])! > 0 })
    }

    @Test("three shards merged give the single run's analysis byte for byte")
    func shardsMerge() throws {
        let dir = CLIProcess.tempDir()
        let design = [Self.priceTest] + Self.small + ["--unpinned", "--span", "0.5", "--samples", "2", "--kpis", "net_revenue_usd"]
        let whole = dir.appendingPathComponent("whole")
        #expect(try CLIProcess.run(["sensitivity"] + design + ["--out", whole.path]).status == 0)
        var shards: [String] = []
        for k in 1...3 {
            let s = dir.appendingPathComponent("shard-\(k)")
            let r = try CLIProcess.run(["sensitivity"] + design + ["--shard", "\(k)/3", "--out", s.path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: s.appendingPathComponent("sensitivity.csv").path))
            shards.append(s.path)
        }
        let merged = dir.appendingPathComponent("merged")
        let r = try CLIProcess.run(["sensitivity"] + design + ["--merge"] + shards + ["--out", merged.path])
        #expect(r.status == 0, "\(r.stderr)")
        for f in ["sensitivity.csv", "sensitivity-design.csv"] {
            #expect(try Data(contentsOf: whole.appendingPathComponent(f)) == Data(contentsOf: merged.appendingPathComponent(f)), "\(f) differs")
        }
        // A missing shard, or a shard of another design, is refused (exit 2).
        let missing = try CLIProcess.run(["sensitivity"] + design + ["--merge", shards[0], shards[1], "--out", dir.appendingPathComponent("m2").path])
        #expect(missing.status == 2 && missing.stderr.contains("the shards miss"))
        let other = try CLIProcess.run(["sensitivity"] + design + ["--design-seed", "5", "--merge"] + shards + ["--out", dir.appendingPathComponent("m3").path])
        #expect(other.status == 2 && other.stderr.contains("another design") || other.stderr.contains("other parameter values"))
    }

    @Test("a scenario's stated ranges (sensitivity: ranges:) choose the parameters and their ranges; --range overrides one")
    func scenarioRanges() throws {
        let dir = CLIProcess.tempDir()
        let scenario = dir.appendingPathComponent("stated.yaml")
        let text = try String(contentsOfFile: Self.priceTest, encoding: .utf8)
        try (text + "\nsensitivity:\n  ranges:\n    behavior.purchase.buy_constant: {low: -6, high: -5}\n"
             + "    \(Self.unread): {low: 0.5, high: 1.5}\n").write(to: scenario, atomically: true, encoding: .utf8)
        func ranges(_ extra: [String]) throws -> [String: [String]] {
            let out = dir.appendingPathComponent("out-\(extra.count)")
            let r = try CLIProcess.run(["sensitivity", scenario.path] + Self.small + ["--samples", "2", "--kpis", "net_revenue_usd", "--out", out.path] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let t = try Self.csv(out.appendingPathComponent("sensitivity.csv"))
            let p = Self.column(t, "parameter"), lo = Self.column(t, "low"), hi = Self.column(t, "high"), src = Self.column(t, "range_source")
            return Dictionary(p.indices.map { (p[$0], [lo[$0], hi[$0], src[$0]]) }, uniquingKeysWith: { a, _ in a })
        }
        let stated = try ranges([])
        #expect(stated == ["behavior.purchase.buy_constant": ["-6.000000", "-5.000000", "scenario"],
                           Self.unread: ["0.500000", "1.500000", "scenario"]])
        let overridden = try ranges(["--range", "\(Self.unread)=0.8:1.2"])
        #expect(overridden["behavior.purchase.buy_constant"] == ["-6.000000", "-5.000000", "scenario"])
        #expect(overridden[Self.unread] == ["0.800000", "1.200000", "given"])
        // A parameter option chooses the parameters; a stated range still applies to the ones it names.
        let chosen = try ranges(["--params", "behavior.purchase.buy_constant", "behavior.churn.base_hazard"])
        #expect(Set(chosen.keys) == ["behavior.purchase.buy_constant", "behavior.churn.base_hazard"])
        #expect(chosen["behavior.purchase.buy_constant"]?[2] == "scenario" && chosen["behavior.churn.base_hazard"]?[2] == "validated")
        // A stated range outside the validated range is the scenario's error: file, line, key path, exit 2.
        try (text + "\nsensitivity:\n  ranges:\n    behavior.churn.base_hazard: {low: 0.1, high: 7}\n").write(to: scenario, atomically: true, encoding: .utf8)
        let bad = try CLIProcess.run(["sensitivity", scenario.path] + Self.small + ["--out", dir.appendingPathComponent("bad").path])
        #expect(bad.status == 2 && bad.stderr.contains("stated.yaml:") && bad.stderr.contains("sensitivity.ranges.behavior.churn.base_hazard"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad").path))
    }

    @Test("bad input is refused before any run, with exit 2", arguments: [
        (["--params", "behavior.churn.base_hazrd"], "did you mean 'behavior.churn.base_hazard'"),
        (["--params", "churn.base_hazard"], "is not a behaviour parameter"),
        (["--all", "--method", "sobol"], "--method sobol takes at most 20 parameters"),
        (["--params", "behavior.churn.base_hazard", "--range", "behavior.churn.base_hazard=0.5:99"], "outside the validated range"),
        (["--params", "behavior.churn.base_hazard", "--range", "behavior.churn.base_hazard=0.5"], "is not KEY=LO:HI"),
        (["--unpinned", "--samples", "100000", "--people", "100000", "--days", "365"], "over the 24.0 h limit"),
        (["--unpinned", "--method", "sideways"], "sideways"),
    ])
    func refusals(args: [String], message: String) throws {
        let r = try CLIProcess.run(["sensitivity", Self.baseline, "--progress", "never", "--out", CLIProcess.tempDir().appendingPathComponent("x").path] + args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
    }

    @Test("--function ishigami writes the test function's indices near the published ones")
    func ishigami() throws {
        let out = CLIProcess.tempDir().appendingPathComponent("i")
        let r = try CLIProcess.run(["sensitivity", "--function", "ishigami", "--method", "sobol", "--samples", "2048", "--resamples", "20", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let t = try Self.csv(out.appendingPathComponent("sensitivity.csv"))
        let st = Self.column(t, "st").compactMap(Double.init)
        #expect(st.count == 3 && abs(st[0] - 0.5576) < 0.04 && abs(st[1] - 0.4424) < 0.04 && abs(st[2] - 0.2437) < 0.04)
    }

    @Test("planted truth: figures simulated at churn.base_hazard = 0.5 keep 0.5 plausible and rule out the low end of 0.1…0.9")
    func plantedTruth() throws {
        let dir = CLIProcess.tempDir()
        // 2,000 people: at 300 the replicate variance of day-30 retention alone (measured on the first installs only)
        // leaves every hazard in 0.15…0.85 plausible — history matching counts the simulator's own noise.
        let size = ["--people", "2000", "--days", "31", "--replications", "1", "--progress", "never"]
        let truth = dir.appendingPathComponent("truth")
        #expect(try CLIProcess.run(["run", Self.baseline] + size + ["--set", "behavior.churn.base_hazard=0.5", "--out", truth.path]).status == 0)
        let check = try Self.csv(truth.appendingPathComponent("world-check.csv"))
        let figure = Self.column(check, "figure"), mean = Self.column(check, "simulated_mean")
        var targets = "figure,low,high\n"
        for id in ["retention_d1", "retention_d7", "retention_d14", "retention_d30"] {
            let v = Double(mean[figure.firstIndex(of: id)!])!
            targets += "\(id),\(v - 0.01),\(v + 0.01)\n"
        }
        let file = dir.appendingPathComponent("targets.csv")
        try targets.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("plausible")
        let r = try CLIProcess.run(["calibrate", Self.baseline] + size + ["--targets", file.path, "--fit", "behavior.churn.base_hazard",
                                    "--range", "behavior.churn.base_hazard=0.1:0.9", "--plausible", "4", "--budget", "16", "--waves", "2",
                                    "--discrepancy", "0.1", "--criterion", "1", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let widths = try Self.csv(out.appendingPathComponent("plausible-widths.csv"))
        #expect(widths.header == ["scenario", "arm", "replication", "product", "parameter", "prior_low", "prior_high", "default", "plausible_low",
                                  "plausible_high", "width_share", "verdict"])
        let low = Double(Self.column(widths, "plausible_low")[0])!, high = Double(Self.column(widths, "plausible_high")[0])!
        #expect(low <= 0.5 && 0.5 <= high, "plausible \(low)…\(high)")
        #expect(low > 0.2, "a hazard of 0.1…0.2 keeps a fifth more people at day 14 and 30: ruled out (\(low)…\(high))")
        #expect(high - low < 0.8 * 0.8, "the figures narrow the prior: \(low)…\(high)")
        #expect(["narrowed", "pinned"].contains(Self.column(widths, "verdict")[0]))
        let set = try Self.csv(out.appendingPathComponent("plausible-set.csv"))
        #expect(set.rows.count >= 1 && set.rows.count <= 4)
        #expect(set.header.contains("behavior.churn.base_hazard") && set.header.contains("retention_d7"))
    }

    @Test("--robustness: every world's paired differences; a world that only moves an unread parameter changes nothing")
    func robustness() throws {
        let dir = CLIProcess.tempDir()
        // Two worlds that differ from the defaults only in a parameter no Scroll Off person reads, one that raises churn.
        let set = dir.appendingPathComponent("plausible-set.csv")
        try ("scenario,arm,replication,product,world,wave,max_implausibility,second_implausibility,\(Self.unread),behavior.churn.base_hazard\n"
             + "x,control,all,scroll-off,1,1,0,0,-3,0.3621\nx,control,all,scroll-off,2,1,0,0,2,0.3621\nx,control,all,scroll-off,3,1,0,0,0,0.6\n")
            .write(to: set, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("run")
        let r = try CLIProcess.run(["run", Self.priceTest] + Self.small + ["--robustness", set.path, "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("differences robust over 3 plausible world(s)"))
        let e = try Self.csv(out.appendingPathComponent("experiment.csv"))
        #expect(Array(e.header.suffix(5)) == ["robust_worlds", "sign_share", "robust_diff_low", "robust_diff_high", "robustness"])
        let verdicts = Set(Self.column(e, "robustness"))
        #expect(verdicts.isSubset(of: ["robust", "no difference", "undefined", "depends on the world", "depends on behavior.churn.base_hazard"]), "\(verdicts)")
        let w = try Self.csv(out.appendingPathComponent("robustness.csv"))
        let world = Self.column(w, "world"), diff = Self.column(w, "diff"), d0 = Self.column(w, "default_diff")
        #expect(Set(world) == ["0", "1", "2", "3"])
        for i in world.indices where world[i] == "1" || world[i] == "2" || world[i] == "0" { #expect(diff[i] == d0[i], "world \(world[i]) row \(i)") }
        #expect(world.indices.contains { world[$0] == "3" && diff[$0] != d0[$0] })
        // The manifest lists the new files, so a later run may replace them.
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("robustness.csv") && manifest.contains("robustness-leader.csv"))
        // One arm has nothing to judge; an unreadable set is refused (exit 2), before anything runs.
        let one = try CLIProcess.run(["run", Self.baseline] + Self.small + ["--robustness", set.path, "--out", dir.appendingPathComponent("o").path])
        #expect(one.status == 2 && one.stderr.contains("this scenario has one arm"))
        let missing = try CLIProcess.run(["run", Self.priceTest] + Self.small + ["--robustness", "3", "--plausible-set", dir.appendingPathComponent("nope.csv").path,
                                          "--out", dir.appendingPathComponent("p").path])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the plausible set"))
    }
}
