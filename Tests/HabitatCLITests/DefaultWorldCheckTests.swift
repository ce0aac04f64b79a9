import Foundation
import Testing

/// The default Scroll Off baseline against the published world, end to end (issue 14): the whole run — people,
/// engine, churn, purchases — not its parts. Seed 20261122 (the baseline's), 2,000 people × 90 days (the default
/// horizon) × 1 replication, small enough for a debug build. At this size a figure may miss its range by noise, so
/// the test fails a figure whose 95 % interval lies wholly outside the range (or, for figures without an interval —
/// unlocks, peak hour, ratios of means — whose value is outside). The strict check, every figure inside at the
/// default size (10,000 × 90 × 3), is `habitat run` in release: see `Calibration/README.md`.
@Suite("the default baseline's world check", .serialized)
struct DefaultWorldCheckTests {
    /// One CSV record's fields (RFC 4180 quotes).
    static func fields(_ line: String) -> [String] {
        var out: [String] = [], field = "", quoted = false
        var chars = Array(line)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true } else if c == "," { out.append(field); field = "" } else { field.append(c) }
        }
        out.append(field)
        return out
    }

    @Test("no applicable world-check figure of the default baseline is outside its published range beyond noise")
    func defaultBaselineIsInsideTheWorld() throws {
        let out = CLIProcess.tempDir().appendingPathComponent("world")
        let r = try CLIProcess.run(["run", "--people", "2000", "--days", "90", "--replications", "1", "--seed", "20261122",
                                    "--out", out.path, "--progress", "never"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = try String(contentsOf: out.appendingPathComponent("world-check.csv"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = Self.fields(lines[0])
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name)) }
        let figure = try column("figure"), applies = try column("applies"), mean = try column("simulated_mean")
        let low = try column("range_low"), high = try column("range_high"), ciLow = try column("ci_low"), ciHigh = try column("ci_high")
        var measured: [String] = [], outside: [String] = []
        for line in lines.dropFirst() {
            let c = Self.fields(line)
            #expect(c.count == header.count, "\(line)")
            guard c[applies] == "yes" else { continue }
            measured.append(c[figure])
            let lo = try #require(Double(c[low])), hi = try #require(Double(c[high])), m = try #require(Double(c[mean]))
            if let a = Double(c[ciLow]), let b = Double(c[ciHigh]) {
                if b < lo || a > hi { outside.append("\(c[figure]) \(m) (95 % interval \(a)–\(b), range \(lo)–\(hi))") }
            } else if m < lo || m > hi {
                outside.append("\(c[figure]) \(m) (range \(lo)–\(hi))")
            }
        }
        // Everything but the two trial figures (Scroll Off offers none) and the 12-month ones (need 367 days).
        #expect(measured.count == 19, "measured: \(measured)")
        // Issue 26 re-fitted the population jointly for both products (Calibration/README.md, "One population, one
        // fit"). What the joint fit cannot reach, with its named mechanism: the launches of the target apps Scroll Off
        // stops (0.60 against field studies' 0.13–0.48: its credits refuse where the studied tools let people
        // through; letting go hardly moves it). And the first monthly renewal (issue 38, audit N9): the joint fit set
        // `purchase.renew_intercept` and `purchase.inertia` while an uninstall silently ended every subscription, so
        // about a third of first renewals never happened; now the store renews after an uninstall too and the fitted
        // values keep ~0.9 of them (Calibration/README.md, "After issue 38"). Issue 39's joint fit re-estimates them.
        // Any other figure outside fails, and so does each of these if it comes back inside (the expectation must
        // then be removed).
        let expectedToMiss: Set<String> = ["target_app_opens_reduction_weeks_1_3", "first_monthly_renewal"]
        #expect(expectedToMiss.isSubset(of: Set(outside.map { String($0.split(separator: " ")[0]) })), "an expected miss is back inside: \(outside)")
        let missing = Set(outside.map { String($0.split(separator: " ")[0]) })
        #expect(missing.subtracting(expectedToMiss).isEmpty, "outside the published range: \(outside)")
        withKnownIssue("the joint fit of issue 26 (before issue 38's subscriber fix) leaves these outside, each for a named mechanism: \(expectedToMiss.sorted())") {
            #expect(outside.isEmpty, "outside the published range: \(outside)")
        }
    }
}
