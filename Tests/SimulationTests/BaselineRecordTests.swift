import Foundation
import Testing
@testable import Simulation

@Suite("baseline.json is written exactly as the committed baselines hold it")
struct BaselineRecordTests {
    static let baselines = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Reports/baselines")

    @Test("json() reproduces every committed baseline.json byte for byte")
    func committedBaselineJSONRoundTrips() throws {
        let dirs = try FileManager.default.contentsOfDirectory(atPath: Self.baselines.path).sorted()
            .filter { FileManager.default.fileExists(atPath: Self.baselines.appendingPathComponent("\($0)/baseline.json").path) }
        #expect(dirs.count >= 5, "the committed baselines: \(dirs)")
        for dir in dirs {
            let url = Self.baselines.appendingPathComponent("\(dir)/baseline.json")
            let text = try String(contentsOf: url, encoding: .utf8)
            let map = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let record = RegressionCheck.BaselineRecord(
                scenarioFile: map["scenario_file"] as? String, seed: (map["seed"] as? NSNumber)?.uint64Value,
                people: map["people"] as? Int, days: map["days"] as? Int, replications: map["replications"] as? Int,
                reason: try #require(map["reason"] as? String))
            #expect(try record.json() == text, "\(dir)/baseline.json")
        }
    }

    @Test("every field is written under its snake_case key, a missing one not at all")
    func keys() throws {
        let full = RegressionCheck.BaselineRecord(scenarioFile: "Scenarios/x.yaml", seed: 7, people: 10, days: 3,
                                                  replications: 2, reason: "why")
        #expect(try full.json() == """
            {
              "days" : 3,
              "people" : 10,
              "reason" : "why",
              "replications" : 2,
              "scenario_file" : "Scenarios\\/x.yaml",
              "seed" : 7
            }

            """)
        let bare = RegressionCheck.BaselineRecord(scenarioFile: nil, seed: nil, people: nil, days: nil, replications: nil, reason: "r")
        #expect(try bare.json() == "{\n  \"reason\" : \"r\"\n}\n")
    }
}
