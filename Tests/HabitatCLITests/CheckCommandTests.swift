import Foundation
import HabitatTestSupport
import Testing

/// Issue 6: `habitat check` against a recorded baseline — exact when nothing changed, statistical when a rule did.
@Suite("habitat check", .serialized)
struct CheckCommandTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenario = repo.appendingPathComponent("Scenarios/scroll-off-baseline.yaml")
    static let size = ["--people", "80", "--days", "21", "--replications", "3", "--threads", "2"]
    /// The component purchase behaviour, without the plans view (so tokens are a large share of the money).
    static let tokenBuyers = MechanismBehavior.setArguments + ["--set", "behavior.engagement.plans_view_probability=0"]

    /// The baseline scenario with some rules changed, as a new file (its explicit `rules:` block, the last of the
    /// file and equal to the defaults, is replaced).
    static func variant(_ dir: URL, _ rules: String) throws -> URL {
        let original = try String(contentsOf: scenario, encoding: .utf8)
        let text = original.components(separatedBy: "\nrules:\n")[0] + "\nrules:\n" + rules + "\n"
        let url = dir.appendingPathComponent("variant.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func record(_ dir: URL, _ extra: [String] = []) throws -> URL {
        let baseline = dir.appendingPathComponent("baseline")
        let r = try CLIProcess.run(["check", scenario.path, "--baseline", baseline.path, "--record", "--reason", "test"] + size + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return baseline
    }

    @Test("an unchanged run passes exactly; a one-byte change in the baseline fails with file, row and column")
    func exact() throws {
        let dir = CLIProcess.tempDir()
        let baseline = try Self.record(dir)
        let ok = try CLIProcess.run(["check", Self.scenario.path, "--baseline", baseline.path])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("PASS (exact)"))
        // One byte: the first digit of the first retention count (keys, cohort, segment, activity, day, size, active).
        let file = baseline.appendingPathComponent("retention.csv")
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\r\n")
        var cells = lines[1].components(separatedBy: ",")
        cells[9] = String(Int(cells[9])! + 1)
        lines[1] = cells.joined(separator: ",")
        try lines.joined(separator: "\r\n").write(to: file, atomically: true, encoding: .utf8)
        let bad = try CLIProcess.run(["check", Self.scenario.path, "--baseline", baseline.path])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("FAIL (exact)"))
        #expect(bad.stdout.contains("retention.csv: row 2, column active:"), "\(bad.stdout)")
    }

    @Test("the token cap from 5 to 3 fails on token share and names the rule; a parameter nobody meets passes")
    func statistical() throws {
        let dir = CLIProcess.tempDir()
        // Token buyers in 80 people: the component purchase behaviour (at the fitted defaults few buy a token), with
        // no one looking at the plans (issue 26's E7 sells subscriptions that would drown the token share's move).
        let buyers = Self.tokenBuyers
        let baseline = try Self.record(dir, buyers)
        let cap = try Self.variant(dir, "  tokens:\n    monthly_purchase_cap: 3")
        let r = try CLIProcess.run(["check", cap.path, "--baseline", baseline.path] + buyers)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("control: rules.tokens.monthly_purchase_cap: 5 → 3"))
        #expect(r.stdout.contains("FAIL (statistical)"))
        #expect(r.stdout.contains("control token_revenue_share: down"))
        #expect(r.stdout.contains("bypass_token_cap_hit"), "the first divergence shows the refused purchase")
        // Nobody buys a token outside the shield (a parameter the descriptor documents as not simulable).
        let cosmetic = try Self.variant(dir, "  tokens:\n    purchasable_outside_shield: true")
        let c = try CLIProcess.run(["check", cosmetic.path, "--baseline", baseline.path] + buyers)
        #expect(c.status == 0, "\(c.stdout)\(c.stderr)")
        #expect(c.stdout.contains("control: rules.tokens.purchasable_outside_shield: false → true"))
        #expect(c.stdout.contains("PASS (statistical)"))
    }

    @Test("--out writes the check's comparison (pass or fail, exact or statistical) and never over a file it did not write")
    func outFile() throws {
        let dir = CLIProcess.tempDir()
        let buyers = Self.tokenBuyers
        let baseline = try Self.record(dir, buyers)
        let out = dir.appendingPathComponent("check.csv")
        let exact = try CLIProcess.run(["check", Self.scenario.path, "--baseline", baseline.path, "--out", out.path] + buyers)
        #expect(exact.status == 0, "\(exact.stdout)\(exact.stderr)")
        let header = "scenario,arm,replication,product,kpi,unit,control_arm,control_mean,arm_mean,diff,diff_ci_low,diff_ci_high,"
            + "rel_diff,unpaired_ci_low,unpaired_ci_high,pairs,tolerance,beyond_tolerance,check"
        let exactRows: [String] = try String(contentsOf: out, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(exactRows.first == header)
        #expect(exactRows.count > 20)
        #expect(exactRows.dropFirst().allSatisfy { $0.hasSuffix(",false,exact") && $0.contains(",baseline control,") }, "\(exactRows.prefix(3))")
        // A failing statistical check still writes its table (replacing the earlier output), the moved KPI marked.
        let cap = try Self.variant(dir, "  tokens:\n    monthly_purchase_cap: 3")
        let failed = try CLIProcess.run(["check", cap.path, "--baseline", baseline.path, "--out", out.path] + buyers)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        let rows: [String] = try String(contentsOf: out, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(rows.contains { $0.contains(",token_revenue_share,") && $0.hasSuffix(",true,statistical") }, "\(rows.prefix(3))")
        // Refusals: with --record, and over a file that is not an earlier output of check --out.
        let recordOut = try CLIProcess.run(["check", "--baseline", baseline.path, "--record", "--reason", "x", "--out", out.path])
        #expect(recordOut.status == 2)
        #expect(recordOut.stderr.contains("with --record the baseline folder is the output"))
        let foreign = dir.appendingPathComponent("notes.csv")
        try "mine\n".write(to: foreign, atomically: true, encoding: .utf8)
        let refused = try CLIProcess.run(["check", "--baseline", baseline.path, "--out", foreign.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is not a previous output of this command"), "\(refused.stderr)")
        #expect(try String(contentsOf: foreign, encoding: .utf8) == "mine\n")
    }

    @Test("recording needs a reason; a missing baseline is a clear error")
    func badInput() throws {
        let dir = CLIProcess.tempDir()
        let noReason = try CLIProcess.run(["check", "--baseline", dir.appendingPathComponent("b").path, "--record"] + Self.size)
        #expect(noReason.status == 2)
        #expect(noReason.stderr.contains("--record needs --reason"))
        let missing = try CLIProcess.run(["check", "--baseline", dir.appendingPathComponent("nothing").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("not found"))
    }
}
