import Foundation
import Reports
import RulesCore

/// One figure a calibration fits: a world-check figure (`WorldFigures`) and the range it should land in, weighted.
public struct CalibrationTarget: Sendable, Hashable {
    /// A `WorldFigures` id, e.g. `retention_d7`.
    public var figure: String
    public var low: Double
    public var high: Double
    /// Relative weight in the loss (> 0); 1 by default.
    public var weight: Double

    public init(figure: String, low: Double, high: Double, weight: Double = 1) {
        self.figure = figure
        self.low = low
        self.high = high
        self.weight = weight
    }

    /// Width of the range the loss measures misses in: the range's width, at least 1 % of its larger bound (a
    /// point target still gets a finite scale).
    public var scale: Double { max(high - low, 0.01 * max(abs(low), abs(high)), 1e-9) }

    /// The inner range the fit aims for: the range shrunk by `margin` of its width at each end, so a fitted value
    /// does not sit on an edge that the noise of a larger run would cross. Assumption: 10 %.
    public func aim(margin: Double) -> ClosedRange<Double> {
        let inset = (high - low) * margin
        return (low + inset)...(high - inset)
    }

    /// How far `value` lies outside the aimed range, in units of `scale` (0 inside).
    public func miss(_ value: Double, margin: Double) -> Double {
        let r = aim(margin: margin)
        if value < r.lowerBound { return (r.lowerBound - value) / scale }
        if value > r.upperBound { return (value - r.upperBound) / scale }
        return 0
    }
}

/// A targets file that cannot be used: where and why.
public struct CalibrationInputError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let line: Int?
    public let message: String
    public init(file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    public var description: String { "\(file.echoedPath)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

/// Targets files (`figure,low,high[,weight]`) and the default targets (every world-check figure and its range).
public enum CalibrationTargets {
    /// A figure's id in a joint calibration: `<product>:<figure>`.
    public static func jointID(product: String, figure: String) -> String { "\(product):\(figure)" }

    /// Every world-check figure with its published range, weight 1 — what `habitat calibrate` fits by default.
    public static var worldFigures: [CalibrationTarget] {
        WorldFigures.all.map { CalibrationTarget(figure: $0.id, low: $0.low, high: $0.high) }
    }

    /// The largest targets file read (one row per world-check figure is a few kilobytes).
    public static let maxBytes = InputLimits.targets

    /// Reads and parses the targets file at `file` (`InputFile`: a regular UTF-8 file; a folder, a FIFO, a device,
    /// a missing, unreadable, huge or binary file is refused in words, the FIFO without being opened).
    public static func read(file: String, products: [String] = []) throws(CalibrationInputError) -> [CalibrationTarget] {
        let text: String
        do { text = try InputFile.text(file, maxBytes: maxBytes, binaryHint: "a targets file is CSV text") } catch {
            throw CalibrationInputError(file: file, "cannot read the targets file: \(error.description)")
        }
        return try parse(csv: text, file: file, products: products)
    }

    /// Reads a targets CSV: header `figure,low,high` or `figure,low,high,weight`, one row per figure (a
    /// `WorldFigures` id, each at most once), low ≤ high, finite numbers, weight > 0. Blank lines are skipped.
    ///
    /// For a joint calibration (`products` not empty, `habitat calibrate A --also B`), every figure names its product:
    /// `<product>:<figure>`, e.g. `earned-access:retention_d7`.
    public static func parse(csv text: String, file: String, products: [String] = []) throws(CalibrationInputError) -> [CalibrationTarget] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let headerIndex = lines.firstIndex(where: { !$0.isEmpty }) else {
            throw CalibrationInputError(file: file, "the targets file is empty; expected a header figure,low,high[,weight]")
        }
        let header = lines[headerIndex].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard header == ["figure", "low", "high"] || header == ["figure", "low", "high", "weight"] else {
            throw CalibrationInputError(file: file, line: headerIndex + 1,
                                        "header is '\(lines[headerIndex].echoed())'; expected figure,low,high or figure,low,high,weight")
        }
        let ids = WorldFigures.all.map(\.id)
        let known = products.isEmpty ? ids : products.flatMap { p in ids.map { jointID(product: p, figure: $0) } }
        var targets: [CalibrationTarget] = []
        for (i, raw) in lines.enumerated().dropFirst(headerIndex + 1) where !raw.isEmpty {
            let line = i + 1
            let cells = raw.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == header.count || (header.count == 4 && cells.count == 3) else {
                throw CalibrationInputError(file: file, line: line, "expected \(header.count) fields (\(header.joined(separator: ","))), got \(cells.count): '\(raw.echoed())'")
            }
            let figure = cells[0]
            if !products.isEmpty, let colon = figure.firstIndex(of: ":"), !products.contains(String(figure[..<colon])) {
                let named = String(figure[..<colon])
                throw CalibrationInputError(file: file, line: line, "figure: '\(figure.echoed())' names product '\(named.echoed())', which is not in "
                                            + "this joint fit; allowed: <product>:<figure> for a product of \(AllowedList.text(products))")
            }
            guard known.contains(figure) else {
                let hint = Suggestion.closest(to: figure, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw CalibrationInputError(file: file, line: line, "figure: unknown world-check figure '\(figure.echoed())'\(hint); allowed: \(AllowedList.text(known, seeAlso: "the figure column of a run's world-check.csv" + (products.isEmpty ? "" : ", as <product>:<figure>")))")
            }
            guard !targets.contains(where: { $0.figure == figure }) else {
                throw CalibrationInputError(file: file, line: line, "figure: '\(figure.echoed())' is listed twice")
            }
            func number(_ column: String, _ text: String) throws(CalibrationInputError) -> Double {
                guard let v = Double(text), v.isFinite else {
                    throw CalibrationInputError(file: file, line: line, "\(column): '\(text.echoed())' is not a finite number")
                }
                return v
            }
            let low = try number("low", cells[1]), high = try number("high", cells[2])
            guard low <= high else {
                throw CalibrationInputError(file: file, line: line, "low \(cells[1].echoed()) is above high \(cells[2].echoed()); allowed: low <= high")
            }
            var weight = 1.0
            if cells.count == 4 {
                weight = try number("weight", cells[3])
                guard weight > 0 else {
                    throw CalibrationInputError(file: file, line: line, "weight: \(cells[3].echoed()) is not positive; allowed: a number > 0")
                }
            }
            targets.append(CalibrationTarget(figure: figure, low: low, high: high, weight: weight))
        }
        guard !targets.isEmpty else { throw CalibrationInputError(file: file, "the targets file names no figure") }
        return targets
    }
}
