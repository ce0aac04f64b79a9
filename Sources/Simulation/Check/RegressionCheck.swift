import Foundation
import Reports
import RulesCore
import ScenarioFormat
#if canImport(Glibc)
import Glibc
#endif

/// Regression checks of a scenario against a stored baseline run (issue 6): exact comparison when nothing
/// changed, statistical comparison of every KPI when something did, and an explanation of the change.
public enum RegressionCheck {
    /// `baseline.json` beside a baseline's reports: how to re-run it and why it was recorded.
    ///
    /// Written by `json()` (snake_case keys: `scenario_file`, `seed`, `people`, `days`, `replications`, `reason`)
    /// and read back only by `read(from:)`, which checks every field's type and range.
    public struct BaselineRecord: Encodable, Sendable, Equatable {
        /// The scenario file as given to `--record` (relative to the working directory), or nil for the embedded default.
        public var scenarioFile: String?
        public var seed: UInt64?
        public var people: Int?
        public var days: Int?
        public var replications: Int?
        /// Why this baseline was (re-)recorded.
        public var reason: String

        public init(scenarioFile: String?, seed: UInt64?, people: Int?, days: Int?, replications: Int?, reason: String) {
            self.scenarioFile = scenarioFile
            self.seed = seed
            self.people = people
            self.days = days
            self.replications = replications
            self.reason = reason
        }

        public static let fileName = "baseline.json"

        public func json() throws -> String {
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys]
            e.keyEncodingStrategy = .convertToSnakeCase
            return String(decoding: try e.encode(self), as: UTF8.self) + "\n"
        }

        /// Reads and checks `baseline.json`: every field of the right type and within the range a run accepts, and
        /// `scenario_file` (when given) a readable regular file. Errors name the file and the field.
        public static func read(from dir: URL) throws -> BaselineRecord {
            let url = dir.appendingPathComponent(fileName)
            let data: Data
            do { data = Data(try InputFile.bytes(url.path, maxBytes: InputLimits.baselineRecord)) } catch {
                throw ComparisonError("\(url.path.echoedPath): " + (error.kind == .missing
                    ? "not found — record a baseline first with `habitat check --record`" : error.description))
            }
            guard let map = try? JSONDecoder().decode([String: JSONScalar].self, from: data) else {
                throw ComparisonError("\(url.path.echoedPath): not a JSON object of scalars")
            }
            func fail(_ key: String, _ problem: String) -> ComparisonError { ComparisonError("\(url.path.echoedPath): \(key): \(problem)") }
            func integer(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
                guard let v = map[key], v != .null else { return nil }
                guard case .integer(let i) = v else {
                    throw fail(key, "\(v) is not a whole number; allowed \(range.lowerBound)…\(range.upperBound)")
                }
                guard let n = Int(exactly: i), range.contains(n) else {
                    throw fail(key, "\(i) is out of range; allowed \(range.lowerBound)…\(range.upperBound)")
                }
                return n
            }
            var seed: UInt64?
            switch map["seed"] {
            case nil, .null?: break
            case .integer(let i)? where i >= 0: seed = UInt64(i)
            case .unsigned(let u)?: seed = u
            case let v?: throw fail("seed", "\(v) is not a seed; allowed 0…\(UInt64.max)")
            }
            guard case .text(let reason)? = map["reason"] else { throw fail("reason", "missing (text saying why the baseline was recorded)") }
            var scenarioFile: String?
            switch map["scenario_file"] {
            case nil, .null?: break
            case .text(let file)? where !file.isEmpty:
                var st = stat()
                guard stat(file, &st) == 0 else { throw fail("scenario_file", "'\(file.echoedPath)' not found (paths are relative to the working directory)") }
                guard st.st_mode & S_IFMT == S_IFREG else {
                    throw fail("scenario_file", "'\(file.echoedPath)' is \(OutputSafety.describe(mode: st.st_mode)), not a scenario file")
                }
                scenarioFile = file
            case let v?: throw fail("scenario_file", "\(v) is not a file path")
            }
            return BaselineRecord(scenarioFile: scenarioFile, seed: seed, people: try integer("people", 1...10_000_000),
                                  days: try integer("days", 1...3650), replications: try integer("replications", 1...10_000), reason: reason)
        }
    }

    /// One JSON value of `baseline.json`, decoded without guessing: a whole number is never a boolean, and the
    /// reverse.
    enum JSONScalar: Decodable, Equatable, CustomStringConvertible {
        case integer(Int64), unsigned(UInt64), number(Double), bool(Bool), text(String), null, other

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let i = try? c.decode(Int64.self) { self = .integer(i) } else if let u = try? c.decode(UInt64.self) { self = .unsigned(u) }
            else if let d = try? c.decode(Double.self) { self = .number(d) } else if let s = try? c.decode(String.self) { self = .text(s) }
            else { self = .other }
        }

        var description: String {
            switch self {
            case .integer(let i): return String(i)
            case .unsigned(let u): return String(u)
            case .number(let d): return String(d)
            case .bool(let b): return String(b)
            case .text(let s): return "'\(s.echoed())'"
            case .null: return "null"
            case .other: return "a list or an object"
            }
        }
    }

    // MARK: - Exact

    /// The first difference between two CSV texts: 1-based row (the header is row 1) and the column's name.
    public struct CSVDifference: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var row: Int
        public var column: String
        public var expected: String
        public var actual: String
        public var description: String {
            "\(file): row \(row), column \(column): baseline '\(expected.echoed())', now '\(actual.echoed())'"
        }
    }

    /// Refuses, before any simulation, a baseline's report file that `firstDifference` could not read: not a regular
    /// file, or over `InputLimits.reportFile` (a missing file is left to `firstDifference`, which reports it).
    /// - Throws: `ComparisonError` naming the file and the limit.
    public static func checkStoredFiles(_ files: [String], in baseline: URL) throws {
        for file in files {
            let path = baseline.appendingPathComponent(file).path
            do { try InputFile.check(path, maxBytes: InputLimits.reportFile) } catch {
                if error.kind != .missing { throw ComparisonError("\(path.echoedPath): \(error.description)") }
            }
        }
    }

    /// The first difference between the baseline's and the new run's copy of each file, in the order given (each
    /// read whole, at most `InputLimits.reportFile` bytes).
    /// - Throws: `ComparisonError` for a file that stands there but cannot be read (too large, not text, not a file).
    public static func firstDifference(files: [String], baseline: URL, current: URL) throws -> CSVDifference? {
        func read(_ url: URL) throws -> String? {
            do { return try InputFile.text(url.path, maxBytes: InputLimits.reportFile, binaryHint: "not a report file") } catch {
                if error.kind == .missing { return nil }
                throw ComparisonError("\(url.path.echoedPath): \(error.description)")
            }
        }
        for file in files {
            let a = try read(baseline.appendingPathComponent(file))
            let b = try read(current.appendingPathComponent(file))
            guard a != b else { continue }
            guard let a, let b else {
                return CSVDifference(file: file, row: 0, column: "", expected: a == nil ? "<missing>" : "<present>",
                                     actual: b == nil ? "<missing>" : "<present>")
            }
            return csvDifference(file: file, a, b)
        }
        return nil
    }

    /// Where two CSV texts first differ, by row and column.
    public static func csvDifference(file: String, _ a: String, _ b: String) -> CSVDifference? {
        let pa = CSVTable.parse(a), pb = CSVTable.parse(b)
        let ra = [pa.header] + pa.rows, rb = [pb.header] + pb.rows
        for i in 0..<max(ra.count, rb.count) {
            let x = i < ra.count ? ra[i] : [], y = i < rb.count ? rb[i] : []
            guard x != y else { continue }
            for j in 0..<max(x.count, y.count) where (j < x.count ? x[j] : nil) != (j < y.count ? y[j] : nil) {
                let name = j < pa.header.count ? pa.header[j] : "#\(j + 1)"
                return CSVDifference(file: file, row: i + 1, column: name, expected: j < x.count ? x[j] : "<none>",
                                     actual: j < y.count ? y[j] : "<none>")
            }
        }
        // Same cells, different bytes (line endings, quoting).
        return a == b ? nil : CSVDifference(file: file, row: 0, column: "", expected: "\(a.utf8.count) bytes", actual: "\(b.utf8.count) bytes")
    }

    // MARK: - Rules

    /// A rule (or behaviour) parameter whose value differs between the baseline and now, in some arm.
    public struct RuleChange: Sendable, Equatable, CustomStringConvertible {
        public var arm: String
        public var keyPath: String
        public var before: String
        public var after: String
        /// `rules` or `behavior`: the scenario block the key path is under.
        public var block = "rules"
        public var description: String { "\(arm): \(block).\(keyPath): \(before) → \(after)" }
    }

    /// Rule and behaviour parameters that differ, arm by arm (arms matched by name; an arm present on one side only
    /// is listed).
    public static func ruleChanges(baseline: ResolvedScenario, current: ResolvedScenario) -> [RuleChange] {
        var changes: [RuleChange] = []
        for arm in current.arms {
            guard let old = baseline.arm(named: arm.name) else {
                changes.append(RuleChange(arm: arm.name, keyPath: "*", before: "(no such arm)", after: "(new arm)"))
                continue
            }
            let keys = Set(arm.rules.values.keys).union(old.rules.values.keys).sorted()
            for k in keys where arm.rules[k] != old.rules[k] {
                changes.append(RuleChange(arm: arm.name, keyPath: k, before: old.rules[k]?.description ?? "(none)",
                                          after: arm.rules[k]?.description ?? "(none)"))
            }
            for k in Set(arm.behavior.values.keys).union(old.behavior.values.keys).sorted() where arm.behavior[k] != old.behavior[k] {
                changes.append(RuleChange(arm: arm.name, keyPath: k, before: old.behavior[k]?.description ?? "(default)",
                                          after: arm.behavior[k]?.description ?? "(default)", block: "behavior"))
            }
        }
        for arm in baseline.arms where current.arm(named: arm.name) == nil {
            changes.append(RuleChange(arm: arm.name, keyPath: "*", before: "(arm)", after: "(removed)"))
        }
        return changes
    }

    // MARK: - Statistical

    /// How far a KPI may move before the check fails: the larger of `absolute` and `relative` × |baseline mean|.
    public struct Tolerance: Sendable, Equatable {
        public var absolute: Double
        public var relative: Double
        public init(absolute: Double = 0, relative: Double = 0) { self.absolute = absolute; self.relative = relative }
        /// Default: 1 % of the baseline mean (assumption; set per KPI with a tolerance file).
        public static let standard = Tolerance(absolute: 1e-9, relative: 0.01)
        public func allowed(baselineMean: Double?) -> Double { max(absolute, relative * abs(baselineMean ?? 0)) }
    }

    /// Reads a tolerance file: CSV `kpi,abs,rel` (either cell may be empty).
    /// Reads a tolerances file (`kpi,abs,rel`); every KPI id must be one the baseline reports (`known`), so that a
    /// misspelt id is an error rather than a tolerance silently never applied.
    public static func readTolerances(_ url: URL, known: [String]) throws -> [String: Tolerance] {
        let result = try readTolerances(url)
        for kpi in result.keys.sorted() where !known.contains(kpi) {
            let hint = Suggestion.closest(to: kpi, among: known).map { "; did you mean '\($0)'?" } ?? ""
            throw ComparisonError("\(url.path.echoedPath): kpi '\(kpi.echoed())' is not a KPI of the baseline\(hint) (its KPIs: \(AllowedList.text(known, seeAlso: "the kpi column of its kpis.csv")))")
        }
        return result
    }

    public static func readTolerances(_ url: URL) throws -> [String: Tolerance] {
        let text: String
        do { text = try InputFile.text(url.path, maxBytes: InputLimits.tolerances, binaryHint: "a tolerances file is CSV text") } catch {
            throw ComparisonError("\(url.path.echoedPath): cannot read the tolerances file: \(error.description)")
        }
        let (header, rows) = CSVTable.parse(text)
        guard header == ["kpi", "abs", "rel"] else { throw ComparisonError("\(url.path.echoedPath):1: the header must be 'kpi,abs,rel'") }
        var result: [String: Tolerance] = [:]
        for (i, r) in rows.enumerated() {
            guard r.count == 3 else { throw ComparisonError("\(url.path.echoedPath):\(i + 2): expected 3 cells, got \(r.count)") }
            func number(_ s: String, _ name: String) throws -> Double {
                if s.isEmpty { return 0 }
                guard let v = Double(s), v >= 0, v.isFinite else {
                    throw ComparisonError("\(url.path.echoedPath):\(i + 2): \(name) '\(s.echoed())' of \(r[0].echoed()) is not a non-negative number")
                }
                return v
            }
            result[r[0]] = Tolerance(absolute: try number(r[1], "abs"), relative: try number(r[2], "rel"))
        }
        return result
    }

    /// One KPI of one arm, baseline against now.
    public struct Movement: Sendable, CustomStringConvertible {
        public var comparison: ExperimentComparison
        public var allowed: Double
        /// The difference exceeds the tolerance and is not explained by Monte Carlo noise (its 95 % interval,
        /// paired where the people are the same, excludes zero; with no interval the difference alone decides).
        public var beyondTolerance: Bool
        public var description: String {
            let c = comparison
            let d = c.diff ?? 0
            let ci = (c.paired ?? c.unpaired).map { String(format: " (95%% CI %.6g…%.6g)", $0.lower, $0.upper) } ?? ""
            let rel = c.relativeDiff.map { String(format: ", %+.1f%%", $0 * 100) } ?? ""
            return "\(c.arm) \(c.kpi): \(d > 0 ? "up" : "down") \(String(format: "%+.6g", d))\(rel)\(ci); "
                + "baseline \(c.controlMean.map { String(format: "%.6g", $0) } ?? "—"), now \(c.armMean.map { String(format: "%.6g", $0) } ?? "—"); "
                + "tolerance ±\(String(format: "%.3g", allowed))"
        }
    }

    /// Every KPI of every arm present in both runs, judged against its tolerance.
    public static func movements(baseline: FinishedRun, current: FinishedRun, tolerances: [String: Tolerance]) -> [Movement] {
        let paired = FinishedRun.samePeople(baseline, current)
        var result: [Movement] = []
        for arm in current.arms {
            guard let old = baseline.arms.first(where: { $0.arm == arm.arm }) else { continue }
            for c in ArmKPIValues.compare(control: old, arm: arm, paired: paired) {
                let allowed = (tolerances[c.kpi] ?? .standard).allowed(baselineMean: c.controlMean)
                let d = c.diff ?? 0
                let interval = paired ? c.paired : c.unpaired
                let noise = interval.map { $0.lower <= 0 && $0.upper >= 0 } ?? false
                result.append(Movement(comparison: c, allowed: allowed, beyondTolerance: abs(d) > allowed && !noise))
            }
        }
        return result
    }

    // MARK: - Explanation

    /// The first event at which a person's life under the current rules departs from the baseline's.
    public struct Divergence: Sendable, Equatable, CustomStringConvertible {
        public var arm: String
        public var person: Int
        public var time: String
        public var before: String
        public var after: String
        public var description: String {
            "person \(person) (arm \(arm), replication 1) first diverges at \(time):\n    baseline: \(before)\n    now:      \(after)"
        }
    }

    /// Replays people 0, 1, … (up to `maxPeople`) of each arm under both scenarios and returns the first whose
    /// timelines differ, with the first differing row. `run` makes a run of a scenario (the registry's
    /// `Products.run`).
    public static func firstDivergence(baseline: ResolvedScenario, current: ResolvedScenario, maxPeople: Int = 200,
                                       run: (ResolvedScenario) throws -> any ProductRun) throws -> Divergence? {
        let before = try run(baseline), now = try run(current)
        for arm in current.arms {
            guard let old = baseline.arm(named: arm.name) else { continue }
            for person in 0..<min(maxPeople, arm.population.installs, old.population.installs) {
                let a = try before.trace(person: person, arm: arm.name, replication: 1).rows.map { $0.map(\.rendered) }
                let b = try now.trace(person: person, arm: arm.name, replication: 1).rows.map { $0.map(\.rendered) }
                guard a != b else { continue }
                let i = (0..<min(a.count, b.count)).first { Array(a[$0].prefix(4)) != Array(b[$0].prefix(4)) } ?? min(a.count, b.count)
                func show(_ rows: [[String]]) -> String { i < rows.count ? "\(rows[i][1]) \(rows[i][2]): \(rows[i][3])" : "(life ends)" }
                let time = i < a.count ? a[i][0] : (i < b.count ? b[i][0] : "")
                return Divergence(arm: arm.name, person: person, time: time, before: show(a), after: show(b))
            }
        }
        return nil
    }
}
