import Foundation
import Testing
@testable import Simulation

@Suite("habitat calibrate: targets files, the loss, parameters")
struct CalibrationTests {
    @Test("a targets file reads figure,low,high[,weight]; blank lines are skipped; weight defaults to 1")
    func parsesTargets() throws {
        let csv = "figure,low,high,weight\nretention_d1,0.22,0.30,2\n\nretention_d7,0.10,0.16\n"
        let t = try CalibrationTargets.parse(csv: csv, file: "t.csv")
        #expect(t == [CalibrationTarget(figure: "retention_d1", low: 0.22, high: 0.30, weight: 2),
                      CalibrationTarget(figure: "retention_d7", low: 0.10, high: 0.16, weight: 1)])
    }

    @Test("a bad targets file says where and why", arguments: [
        ("", "empty"),
        ("fig,low,high\n", "expected figure,low,high"),
        ("figure,low,high\nretention_d2,0.1,0.2\n", "did you mean 'retention_d1'"),
        ("figure,low,high\nretention_d1,0.3,0.2\n", "low 0.3 is above high 0.2"),
        ("figure,low,high\nretention_d1,x,0.2\n", "low: 'x' is not a finite number"),
        ("figure,low,high,weight\nretention_d1,0.1,0.2,0\n", "weight: 0 is not positive"),
        ("figure,low,high\nretention_d1,0.1,0.2\nretention_d1,0.1,0.2\n", "listed twice"),
        ("figure,low,high\nretention_d1,0.1\n", "expected 3 fields"),
        ("figure,low,high\n", "names no figure"),
    ])
    func refusesBadTargets(csv: String, message: String) {
        do {
            _ = try CalibrationTargets.parse(csv: csv, file: "t.csv")
            Issue.record("accepted \(csv.debugDescription)")
        } catch {
            #expect(error.description.hasPrefix("t.csv"), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("a joint fit's unknown figure lists a few allowed figures, under 1 KB; a product not in the fit is named (issue 40)")
    func jointRefusalsAreShort() {
        let products = ["scroll-off", "earned-access", "nudge"]
        for (csv, phrase) in [("figure,low,high\nnope_figure,0.1,0.2\n", "… and "),
                              ("figure,low,high\nclavis:retention_d1,0.1,0.2\n", "names product 'clavis', which is not in this joint fit")] {
            do {
                _ = try CalibrationTargets.parse(csv: csv, file: "t.csv", products: products)
                Issue.record("accepted \(csv.debugDescription)")
            } catch {
                #expect(error.description.utf8.count < 1024, "\(error.description.utf8.count) bytes: \(error)")
                #expect(error.description.contains(phrase), "\(error)")
            }
        }
    }

    @Test("the default targets are every world-check figure and its published range")
    func defaultTargets() {
        let t = CalibrationTargets.worldFigures
        #expect(t.map(\.figure) == WorldFigures.all.map(\.id))
        #expect(t.allSatisfy { $0.weight == 1 })
    }

    @Test("a miss is the distance outside the range shrunk by the margin, in widths of the range")
    func miss() {
        let t = CalibrationTarget(figure: "retention_d1", low: 0.20, high: 0.30)
        #expect(t.miss(0.25, margin: 0.1) == 0)
        #expect(abs(t.miss(0.20, margin: 0.1) - 0.1) < 1e-12)     // aim starts at 0.21: 0.01 / 0.10
        #expect(abs(t.miss(0.50, margin: 0.1) - 2.1) < 1e-12)     // aim ends at 0.29: 0.21 / 0.10
        #expect(abs(t.miss(0.29, margin: 0) - 0) < 1e-12)
        let point = CalibrationTarget(figure: "peak_hour", low: 20, high: 20)
        #expect(point.scale == 0.2)
        #expect(abs(point.miss(21, margin: 0.1) - 5) < 1e-12)
    }

    @Test("the parameter map keeps every value inside its range and starts where the scenario is")
    func parameterMap() {
        let p = CalibrationParameter(key: "behavior.churn.base_hazard", lower: 0.001, upper: 1, start: 0.08)
        for z in [-50.0, -3, 0, 3, 50] {
            let x = p.bounded(z)
            #expect(x >= p.lower && x <= p.upper)
        }
        #expect(abs(p.bounded(p.unbounded(0.08)) - 0.08) < 1e-12)
        #expect(p.unboundedStep > 0 && p.unboundedStep <= 2)
        #expect(p.catalogueKey == "churn.base_hazard")
    }

    @Test("the loss is Σ weight·miss²; a target that does not apply costs the missing penalty; figures not targeted are checked")
    func loss() throws {
        let d1 = try #require(WorldFigures.all.first { $0.id == "retention_d1" })
        let d7 = try #require(WorldFigures.all.first { $0.id == "retention_d7" })
        let rows = [WorldCheckRow(figure: d1, mean: 0.50, ciLow: nil, ciHigh: nil, inside: false, applies: WorldCheckRow.applicable, replications: 1),
                    WorldCheckRow(figure: d7, mean: nil, ciLow: nil, ciHigh: nil, inside: nil, applies: "needs 8 days; run has 3", replications: 0)]
        let c = Calibration(parameters: [], targets: [CalibrationTarget(figure: "retention_d1", low: 0.20, high: 0.30, weight: 2),
                                                      CalibrationTarget(figure: "retention_d7", low: 0.10, high: 0.16)],
                            arm: "control") { _ in rows }
        let l = c.loss(rows)
        // d1: aim 0.21…0.29, 0.50 is 0.21 above, 2.1 widths, weight 2 → 8.82; d7 missing → 1.
        #expect(abs(l.total - (2 * 2.1 * 2.1 + 1)) < 1e-9)
        #expect(l.misses.map(\.value) == [0.50, nil])
        let roles = c.roles()
        #expect(roles["retention_d1"] == "fitted" && roles["retention_d7"] == "fitted" && roles["unlocks_per_day"] == "checked")
    }
}
