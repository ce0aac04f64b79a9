import Behavior
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("habitat calibrate", .serialized)
struct CalibrateCommandTests {
    @Test("a small fit writes every evaluation, the fitted overlay and the fitted model's world check with roles")
    func smallFitWritesItsFiles() throws {
        let dir = CLIProcess.tempDir()
        let targets = dir.appendingPathComponent("targets.csv")
        try "figure,low,high,weight\nretention_d1,0.22,0.30,1\nretention_d7,0.10,0.16,2\n".write(to: targets, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("fit")
        let r = try CLIProcess.run(["calibrate", "--people", "30", "--days", "9", "--replications", "1", "--targets", targets.path,
                                    "--fit", "behavior.churn.base_hazard", "--budget", "4", "--out", out.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("eval   1/4"))
        #expect(r.stdout.contains("behavior.churn.base_hazard = "))
        let trace = try String(contentsOf: out.appendingPathComponent("calibration.csv"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(trace.first == "scenario,arm,replication,product,evaluation,loss,best_loss,seconds,behavior.churn.base_hazard,retention_d1,retention_d7")
        #expect(trace.count == 1 + 4)
        // The first evaluation is the scenario's own value (the catalogue default).
        #expect(trace[1].hasPrefix("scroll-off-baseline,control,all,scroll-off,1,"))
        #expect(trace[1].contains(String(format: ",%.6f,", BehaviorCatalogue.defaultValue("churn.base_hazard"))))
        // Identifiability: each fitted parameter moved alone, down and up (issue 26).
        let pins = try String(contentsOf: out.appendingPathComponent("identifiability.csv"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(pins.first == "scenario,arm,replication,product,parameter,value,low_value,high_value,loss,loss_at_low,loss_at_high,loss_rise,pinned")
        #expect(pins.count == 2 && pins[1].hasPrefix("scroll-off-baseline,control,all,scroll-off,behavior.churn.base_hazard,"))
        let overlay = try String(contentsOf: out.appendingPathComponent("fitted-behavior.yaml"), encoding: .utf8)
        #expect(overlay.contains("behavior:\n  churn:\n    base_hazard: "))
        #expect(overlay.contains("# Targets fitted: retention_d1, retention_d7"))
        let check = try String(contentsOf: out.appendingPathComponent("world-check.csv"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(check.first?.hasSuffix(",replications,role") == true)
        #expect(check.contains { $0.contains(",retention_d7,") && $0.hasSuffix(",fitted") })
        #expect(check.contains { $0.contains(",unlocks_per_day,") && $0.hasSuffix(",checked") })
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"kind\" : \"calibration\"") || manifest.contains("\"kind\":\"calibration\""))
    }

    @Test("the overlay's values reload as a scenario's behavior block")
    func overlayIsAScenarioBlock() throws {
        let dir = CLIProcess.tempDir()
        let out = dir.appendingPathComponent("fit")
        let targets = dir.appendingPathComponent("t.csv")
        try "figure,low,high\nretention_d1,0.22,0.30\n".write(to: targets, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["calibrate", "--people", "20", "--days", "3", "--targets", targets.path,
                                    "--fit", "behavior.churn.base_hazard", "--fit", "behavior.purchase.buy_constant",
                                    "--budget", "3", "--set", "behavior.churn.base_hazard=0.3", "--set", "behavior.shield.urge_weight=2.5",
                                    "--out", out.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let overlay = try String(contentsOf: out.appendingPathComponent("fitted-behavior.yaml"), encoding: .utf8)
        let scenario = dir.appendingPathComponent("fitted.yaml")
        try ("name: fitted\nproduct: scroll-off\nhorizon_days: 3\n" + overlay).write(to: scenario, atomically: true, encoding: .utf8)
        let v = try CLIProcess.run(["validate", scenario.path])
        #expect(v.status == 0, "stderr: \(v.stderr)")
        #expect(v.stdout.contains("base_hazard"))
        // The block holds the values given with --set too, so it alone reproduces the fitted model.
        #expect(overlay.contains("# Given by the scenario or --set (not fitted here): shield.urge_weight"))
        #expect(overlay.contains("    urge_weight: 2.5"))
    }

    @Test("bad input is refused with exit 2 and a message naming it, before any simulation", arguments: [
        (["--fit", "churn.base_hazard"], "is not a behaviour parameter"),
        (["--fit", "behavior.churn.base_hazrd"], "did you mean 'behavior.churn.base_hazard'"),
        (["--fit", "behavior.churn.base_hazard", "--fit", "behavior.churn.base_hazard"], "named twice"),
        (["--budget", "1"], "--budget"),
        (["--fit", "behavior.churn.base_hazard", "--fit", "behavior.churn.value_weight", "--budget", "2"], "cannot build the first simplex"),
        (["--targets", "/nonexistent/targets.csv"], "cannot read the targets file"),
    ])
    func refusesBadInput(args: [String], message: String) throws {
        let out = CLIProcess.tempDir().appendingPathComponent("never")
        let r = try CLIProcess.run(["calibrate", "--people", "10", "--days", "2", "--out", out.path] + args)
        #expect(r.status == 2, "stdout: \(r.stdout) stderr: \(r.stderr)")
        #expect(r.stderr.contains(message), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a bad targets file names the file, the line and the value")
    func refusesBadTargetsFile() throws {
        let dir = CLIProcess.tempDir()
        let targets = dir.appendingPathComponent("t.csv")
        try "figure,low,high\nretention_d3,0.1,0.2\n".write(to: targets, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["calibrate", "--people", "10", "--days", "2", "--targets", targets.path, "--out", dir.appendingPathComponent("x").path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(targets.path):2: figure: unknown world-check figure 'retention_d3'"), "stderr: \(r.stderr)")
    }

    @Test("a targets file that is not a text file gets one plain reason and exit 2, a FIFO without blocking (issue 30)")
    func refusesTargetsThatAreNotTextFiles() throws {
        let dir = CLIProcess.tempDir()
        let fifo = dir.appendingPathComponent("fifo.csv")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let latin = dir.appendingPathComponent("latin1.csv")
        try Data("figure,low,high\nretention_d1,0.2,0.3 caf".utf8 + [0xE9, 0x0A]).write(to: latin)
        let empty = dir.appendingPathComponent("empty.csv")
        try Data().write(to: empty)
        let cases: [(String, String)] = [
            (".", "cannot read the targets file: it is a folder, not a file"),
            (dir.path, "it is a folder, not a file"),
            ("/dev/zero", "it is a device, not a regular file"),
            (fifo.path, "it is a named pipe (FIFO), not a regular file"),
            (dir.appendingPathComponent("missing.csv").path, "the file does not exist"),
            (latin.path, "not UTF-8 text: byte 0xE9 at line 2"),
            (empty.path, "the targets file is empty"),
        ]
        for (path, message) in cases {
            let out = dir.appendingPathComponent("never")
            let r = try CLIProcess.run(["calibrate", "--people", "10", "--days", "2", "--targets", path, "--out", out.path], cwd: dir)
            #expect(r.status == 2, "\(path): stderr: \(r.stderr)")
            #expect(r.stderr.hasPrefix("habitat: \(path): "), "\(path): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(path): \(r.stderr)")
            #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("permission"), "\(path): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("a joint fit runs every product at each evaluation and scores <product>:<figure> targets (issue 26)")
    func jointFit() throws {
        let dir = CLIProcess.tempDir()
        let targets = dir.appendingPathComponent("targets.csv")
        try "figure,low,high\nscroll-off:retention_d1,0.22,0.30\nearned-access:retention_d1,0.22,0.30\n".write(to: targets, atomically: true, encoding: .utf8)
        let ea = dir.appendingPathComponent("ea.yaml")
        try "name: ea\nproduct: earned-access\nstart: 2026-01-05\nhorizon_days: 5\npopulation:\n  installs: 10\n".write(to: ea, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("joint")
        let r = try CLIProcess.run(["calibrate", "--also", ea.path, "--people", "20", "--days", "4", "--replications", "1", "--targets", targets.path,
                                    "--fit", "behavior.churn.base_hazard", "--budget", "3", "--out", out.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("jointly with \(ea.path)"))
        let trace = try String(contentsOf: out.appendingPathComponent("calibration.csv"), encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(trace.first == "scenario,arm,replication,product,evaluation,loss,best_loss,seconds,behavior.churn.base_hazard,scroll-off:retention_d1,earned-access:retention_d1")
        #expect(trace.dropFirst().allSatisfy { $0.hasPrefix("scroll-off-baseline+ea,control,all,scroll-off+earned-access,") }, "\(trace)")
        // Both products were measured at every evaluation: neither target column is empty.
        for line in trace.dropFirst() { #expect(!line.hasSuffix(",") && !line.contains(",,"), "\(line)") }
        let check = try String(contentsOf: out.appendingPathComponent("world-check.csv"), encoding: .utf8)
        #expect(check.contains(",earned-access:retention_d1,") && check.contains(",scroll-off:unlocks_per_day,"))
        // Issue 40: each row carries its own scenario's keys (Earned Access's rows were labelled Scroll Off's).
        let rows = check.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        #expect(rows.count > 2)
        for row in rows {
            let own = row.contains(",earned-access:") ? "ea,control,all,earned-access," : "scroll-off-baseline,control,all,scroll-off,"
            #expect(row.hasPrefix(own), "\(row)")
        }
        #expect(rows.contains { $0.hasPrefix("ea,control,all,earned-access,earned-access:retention_d1,") })
        // Unprefixed figures, and two scenarios of one product, are refused before any simulation.
        let plain = dir.appendingPathComponent("plain.csv")
        try "figure,low,high\nretention_d1,0.22,0.30\n".write(to: plain, atomically: true, encoding: .utf8)
        let bad = try CLIProcess.run(["calibrate", "--also", ea.path, "--people", "5", "--days", "2", "--targets", plain.path, "--out", dir.appendingPathComponent("x").path])
        #expect(bad.status == 2 && bad.stderr.contains("unknown world-check figure 'retention_d1'"), "stderr: \(bad.stderr)")
        let twice = try CLIProcess.run(["calibrate", "--also", ea.path, "--also", ea.path, "--people", "5", "--days", "2", "--out", dir.appendingPathComponent("y").path])
        #expect(twice.status == 2 && twice.stderr.contains("one scenario per product"), "stderr: \(twice.stderr)")
    }
}
