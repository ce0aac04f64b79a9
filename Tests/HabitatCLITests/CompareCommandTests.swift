import Foundation
import Testing

/// `habitat compare`: two arms of one run, two runs of the same people (paired), different people (unpaired).
@Suite("habitat compare", .serialized)
struct CompareCommandTests {
    static let small = ["--people", "30", "--days", "10", "--replications", "2", "--threads", "2", "--progress", "never"]

    @Test func comparesTwoArmsOfOneRunAndTwoRuns() throws {
        let dir = CLIProcess.tempDir()
        let price = dir.appendingPathComponent("price")
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios/premium-price-test.yaml")
        #expect(try CLIProcess.run(["run", scenario.path, "--out", price.path] + Self.small).status == 0)

        // Two arms of one run: the same table as experiment.csv.
        let csv = dir.appendingPathComponent("arms.csv")
        let r = try CLIProcess.run(["compare", price.path, "--out", csv.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("premium-599 − control: paired"))
        // Same rows as experiment.csv; numbers agree to the 6 decimals kpis.csv keeps of each replication's value
        // (rel_diff = diff / control mean: that rounding divided by the control mean, large for a tiny KPI).
        let written = CSVTableRows.read(csv), experiment = CSVTableRows.read(price.appendingPathComponent("experiment.csv"))
        #expect(written.count == experiment.count && written.count > 20)
        let relDiff = 12, controlMean = 7
        for (w, e) in zip(written, experiment) {
            #expect(w.count == e.count)
            for (i, (x, y)) in zip(w, e).enumerated() where x != y {
                let tolerance = i == relDiff ? max(1e-5, 2e-6 / abs(Double(e[controlMean]) ?? 1)) : 1e-5
                #expect(abs((Double(x) ?? .nan) - (Double(y) ?? .nan)) < tolerance, "\(w[4]): \(x) vs \(y)")
            }
        }

        // Two runs of the same people (same seed and population): paired; a different seed: unpaired.
        let again = dir.appendingPathComponent("again"), other = dir.appendingPathComponent("other")
        #expect(try CLIProcess.run(["run", "--out", again.path] + Self.small).status == 0)
        #expect(try CLIProcess.run(["run", "--out", other.path, "--seed", "7"] + Self.small).status == 0)
        let same = try CLIProcess.run(["compare", again.path, again.path, "--out", dir.appendingPathComponent("same.csv").path])
        #expect(same.stdout.contains(": paired"))
        let sameRows = CSVTableRows.read(dir.appendingPathComponent("same.csv"))
        #expect(sameRows.allSatisfy { $0[9] == "" || Double($0[9]) == 0 }, "a run against itself differs by exactly 0")
        let unpaired = try CLIProcess.run(["compare", again.path, other.path, "--out", dir.appendingPathComponent("u.csv").path])
        #expect(unpaired.status == 0, "\(unpaired.stderr)")
        #expect(unpaired.stdout.contains("unpaired"))
        #expect(CSVTableRows.read(dir.appendingPathComponent("u.csv")).allSatisfy { $0[10] == "" && $0[11] == "" }, "no paired interval")
    }

    @Test("two products' runs (issue 30): compare names both products and compares the KPIs they share; check refuses a baseline of another product")
    func acrossProducts() throws {
        let dir = CLIProcess.tempDir()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let so = dir.appendingPathComponent("so"), ea = dir.appendingPathComponent("ea")
        #expect(try CLIProcess.run(["run", root.appendingPathComponent("Scenarios/scroll-off-baseline.yaml").path, "--out", so.path] + Self.small).status == 0)
        #expect(try CLIProcess.run(["run", root.appendingPathComponent("Scenarios/earned-access-baseline.yaml").path, "--out", ea.path] + Self.small).status == 0)
        let csv = dir.appendingPathComponent("cross.csv")
        let r = try CLIProcess.run(["compare", so.path, ea.path, "--out", csv.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Different products: earned-access-baseline/control is earned-access, scroll-off-baseline/control is scroll-off"))
        #expect(r.stdout.contains(": paired (same seed, population and Habitat version"))
        let rows = CSVTableRows.read(csv)
        let kpis = Set(rows.map { $0[4] })
        #expect(kpis.contains("target_app_minutes_per_day") && kpis.contains("subscriber_share"), "Habitat's KPIs, which both report")
        #expect(!kpis.contains("willpower_share") && !kpis.contains("token_revenue_share"), "not one product's own")
        #expect(rows.allSatisfy { $0[3] == "earned-access" }, "each row names B's product")

        // A baseline checks its own product: exit 2 before simulating, nothing written.
        let baseline = dir.appendingPathComponent("base")
        #expect(try CLIProcess.run(["check", root.appendingPathComponent("Scenarios/earned-access-baseline.yaml").path, "--baseline", baseline.path,
                                    "--record", "--reason", "test"] + Self.small).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: baseline.path).sorted()
        let refused = try CLIProcess.run(["check", root.appendingPathComponent("Scenarios/scroll-off-baseline.yaml").path, "--baseline", baseline.path,
                                          "--progress", "never"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("holds a run of earned-access; the scenario runs scroll-off: a baseline checks its own product"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: baseline.path).sorted() == before)
    }

    @Test func badInputIsAClearError() throws {
        let dir = CLIProcess.tempDir()
        let missing = try CLIProcess.run(["compare", dir.appendingPathComponent("nope").path, "--out", dir.appendingPathComponent("x.csv").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("not found"))
        let run = dir.appendingPathComponent("one")
        #expect(try CLIProcess.run(["run", "--out", run.path] + Self.small).status == 0)
        let oneArm = try CLIProcess.run(["compare", run.path, "--out", dir.appendingPathComponent("x.csv").path])
        #expect(oneArm.status == 2)
        #expect(oneArm.stderr.contains("has one arm"))
        let noArm = try CLIProcess.run(["compare", run.path, run.path, "--arm-b", "ghost", "--out", dir.appendingPathComponent("x.csv").path])
        #expect(noArm.status == 2)
        #expect(noArm.stderr.contains("no arm 'ghost'; arms: control"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.csv").path))
    }
}
