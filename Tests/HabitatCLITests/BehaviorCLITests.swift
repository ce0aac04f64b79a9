import Foundation
import Testing

/// `--set KEY=VALUE` and `validate --explain` for the behaviour parameters (issue 14 part 2).
@Suite("Behaviour parameters on the command line", .serialized)
struct BehaviorCLITests {
    static let tiny = ["--people", "30", "--days", "10", "--replications", "1", "--progress", "never", "--threads", "2"]

    @Test func setChangesTheRunAndIsRecordedInTheManifest() throws {
        let dir = CLIProcess.tempDir()
        let plain = try CLIProcess.run(["run", "--out", dir.appendingPathComponent("plain").path] + Self.tiny)
        #expect(plain.status == 0, "\(plain.stderr)")
        let set = try CLIProcess.run(["run", "--out", dir.appendingPathComponent("set").path,
                                      "--set", "behavior.churn.base_hazard=0.9", "--set", "rules.tokens.monthly_purchase_cap=1"] + Self.tiny)
        #expect(set.status == 0, "\(set.stderr)")
        let a = try String(contentsOf: dir.appendingPathComponent("plain/retention.csv"), encoding: .utf8)
        let b = try String(contentsOf: dir.appendingPathComponent("set/retention.csv"), encoding: .utf8)
        #expect(a != b, "a churn hazard of 0.9 changes retention")
        let manifest = try String(contentsOf: dir.appendingPathComponent("set/manifest.json"), encoding: .utf8)
        #expect(manifest.contains("behavior:\\n  churn:\\n    base_hazard: 0.9"))
        let plainManifest = try String(contentsOf: dir.appendingPathComponent("plain/manifest.json"), encoding: .utf8)
        #expect(!plainManifest.contains("behavior:"), "a run at the defaults records no behaviour block")
    }

    @Test(arguments: [
        (["--set", "behavior.churn.base_hazard=3"], "allowed a number in 0.0…1.0"),
        (["--set", "behavior.churn.no_such=0.1"], "unknown behaviour parameter 'churn.no_such'"),
        (["--set", "behavior.churn.base_hazard=high"], "expected a number, got 'high'"),
        (["--set", "behavior.churn.base_hazard"], "is not KEY=VALUE"),
        (["--set", "behavior.churn.base_hazard=0.1", "--set", "behavior.churn.base_hazard=0.2"], "given twice"),
        (["--set", "nonsense.key=1"], "cannot be set from the command line"),
    ])
    func setRejectsBadInputWithExitStatus2(_ args: [String], _ message: String) throws {
        let out = CLIProcess.tempDir().appendingPathComponent("out")
        let r = try CLIProcess.run(["run", "--out", out.path] + args + Self.tiny)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.contains("<command line>"))
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written")
    }

    @Test func explainListsEveryBehaviourParameter() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("b.yaml")
        try "name: b\nbehavior:\n  churn:\n    base_hazard: 0.2\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["validate", file.path, "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        for key in ["churn.base_hazard", "churn.value_weight", "churn.engagement_weight", "engagement.app_open_habit_gain",
                    "engagement.app_open_habit_daily_retention", "onboarding.completion.permission", "purchase.buy_constant",
                    "purchase.renew_intercept", "purchase.trial_intercept", "purchase.token_constant", "refund.value_weight",
                    "shield.urge_weight", "engagement.app_open_per_pickup_scale", "engagement.insight_view_probability"] {
            #expect(r.stdout.contains("behavior." + key), "\(key)")
        }
        #expect(r.stdout.contains("0.2 *"))
        #expect(r.stdout.contains("behaviour parameters, 1 changed from the default (*)"))
        #expect(r.stdout.contains("behavior:\n  churn:\n    base_hazard: 0.2\n"), "the resolved scenario lists the block")
    }
}
