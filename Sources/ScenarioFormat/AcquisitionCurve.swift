import Foundation
import RulesCore

/// How many real people install the app each day (`population.acquisition`), for forecasts (issue 5).
///
/// The simulation runs `population.installs` people — a sample — spread over the days in proportion to the
/// curve; each stands for `total real installs / installs` real people, and `forecast.csv` scales counts and
/// money by that weight. Assumption: installs are deterministic given the curve (no day-to-day noise), so arms
/// and replications share the same install days and stay paired.
public struct AcquisitionCurve: Sendable, Hashable {
    /// The shape of the curve.
    public enum Form: Sendable, Hashable {
        /// The same number of real installs every day.
        case perDay(Double)
        /// Linear from `from` on day 0 to `to` on day `overDays`, constant at `to` afterwards (a launch ramp).
        case ramp(from: Double, to: Double, overDays: Int)
        /// Real installs per calendar month from the start's month, spread evenly over each month's days; the last
        /// figure repeats for later months.
        case monthly([Double])
        /// Daily installs read from a CSV file (`date,installs`); days it does not list have none.
        case daily(file: String, installs: [LocalDate: Double])
    }

    public var form: Form
    /// Monday…Sunday multipliers (normalised to mean 1 when applied), or nil for none.
    public var weeklySeasonality: [Double]?

    public init(form: Form, weeklySeasonality: [Double]? = nil) {
        self.form = form
        self.weeklySeasonality = weeklySeasonality
    }

    /// Real installs on each of `days` days from `start`.
    public func realInstalls(start: LocalDate, days: Int) -> [Double] {
        var series = (0..<days).map { d -> Double in
            let date = start + Int64(d)
            switch form {
            case .perDay(let n): return n
            case let .ramp(from, to, overDays):
                guard overDays > 0, d < overDays else { return to }
                return from + (to - from) * Double(d) / Double(overDays)
            case .monthly(let figures):
                let startMonth = start.monthID, month = date.monthID
                let index = min(figures.count - 1, month.ordinal - startMonth.ordinal)
                return figures[index] / Double(month.next.firstDay - month.firstDay)
            case .daily(_, let installs):
                return installs[date] ?? 0
            }
        }
        if let s = weeklySeasonality, s.count == 7 {
            let mean = s.reduce(0, +) / 7
            if mean > 0 { for d in series.indices { series[d] *= s[(start + Int64(d)).weekday.rawValue - 1] / mean } }
        }
        return series
    }

    /// The install day (0-based) of each of `people` simulated people, in id order, spread in proportion to the
    /// curve: person i installs on the day where the cumulative share of real installs passes (i + ½)/people.
    public static func installDays(people: Int, realInstalls: [Double]) -> [Int] {
        let total = realInstalls.reduce(0, +)
        guard total > 0, people > 0 else { return Array(repeating: 0, count: max(0, people)) }
        var days: [Int] = []
        days.reserveCapacity(people)
        var cumulative = 0.0, day = 0
        for i in 0..<people {
            let target = (Double(i) + 0.5) / Double(people) * total
            while day < realInstalls.count - 1 && cumulative + realInstalls[day] < target {
                cumulative += realInstalls[day]
                day += 1
            }
            days.append(day)
        }
        return days
    }

    /// Reads a `date,installs` CSV (header required; ISO dates; non-negative numbers).
    /// - Throws: a message naming the file and line.
    /// The most real installs a day a curve may give (the range of `per_day`).
    public static let maxInstallsPerDay = 10_000_000.0

    public static func readCSV(_ url: URL) throws(AcquisitionError) -> [LocalDate: Double] {
        let text: String
        do { text = try ScenarioText.read(url.path, maxBytes: InputLimits.scenarioCSV) } catch {
            throw AcquisitionError("\(url.path.echoedPath): \(error.description)")
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first?.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }),
              header == ["date", "installs"] else {
            throw AcquisitionError("\(url.path.echoedPath):1: the header must be 'date,installs'")
        }
        var result: [LocalDate: Double] = [:]
        for (i, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { throw AcquisitionError("\(url.path.echoedPath):\(i + 1): expected 2 columns (date,installs), got \(cells.count)") }
            guard let date = LocalDate(iso: cells[0]) else {
                throw AcquisitionError("\(url.path.echoedPath):\(i + 1): '\(cells[0].echoed())' is not a date (YYYY-MM-DD)")
            }
            guard let n = Double(cells[1]), n >= 0, n.isFinite else {
                throw AcquisitionError("\(url.path.echoedPath):\(i + 1): installs '\(cells[1].echoed())' is not a non-negative number")
            }
            guard n <= maxInstallsPerDay else {
                throw AcquisitionError("\(url.path.echoedPath):\(i + 1): installs \(cells[1].echoed()) is out of range; allowed 0…\(Int(maxInstallsPerDay)) a day "
                                       + "(as for per_day)")
            }
            guard result[date] == nil else { throw AcquisitionError("\(url.path.echoedPath):\(i + 1): \(cells[0].echoed()) appears twice") }
            result[date] = n
        }
        return result
    }
}

/// A problem with an acquisition curve's data (its CSV file).
public struct AcquisitionError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
