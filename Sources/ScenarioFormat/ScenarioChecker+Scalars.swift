import Foundation
import RulesCore
import Yams

/// Scalars: parsing numbers, words and names, and checking one scalar against its `ScalarKind` (the scalar forms
/// rule parameters share go through `checkForm`, so both say the same thing about the same mistake).
extension ScenarioChecker {
    static func parseInteger(_ raw: String) -> Int? {
        let t = raw.replacingOccurrences(of: "_", with: "")
        return Int(t.hasPrefix("+") ? String(t.dropFirst()) : t)
    }

    static func parseNumber(_ raw: String) -> Double? {
        let t = raw.replacingOccurrences(of: "_", with: "")
        guard !t.isEmpty, t.allSatisfy({ "0123456789.eE+-".contains($0) }), let d = Double(t), d.isFinite else { return nil }
        return d
    }

    static func parseBool(_ raw: String) -> Bool? {
        switch raw.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The longest name (scenario, arm, persona, device) accepted: names become file and folder names.
    static let maxNameLength = 64
    /// Years a date may fall in (the calendar, cohorts and CSV months are written for these).
    static let dateYears = 1970...2200

    /// Letters, digits, `-`, `_`, `.`; a letter or digit first; at most `maxNameLength` characters.
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, CharacterSet.alphanumerics.contains(first), s.count <= maxNameLength else { return false }
        return s.unicodeScalars.allSatisfy(isNameCharacter)
    }

    static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        CharacterSet.alphanumerics.contains(c) || "-_.".unicodeScalars.contains(c)
    }

    /// A usable name made from any text (a file name): other characters become `-`, leading `-_.` are dropped and
    /// the length is bounded; `scenario` when nothing is left.
    static func slug(_ text: String) -> String {
        var s = String(String.UnicodeScalarView(text.unicodeScalars.map { isNameCharacter($0) ? $0 : "-" }))
        s = String(s.drop { !CharacterSet.alphanumerics.contains($0.unicodeScalars.first!) })
        s = String(s.prefix(maxNameLength))
        return s.isEmpty ? "scenario" : s
    }

    /// The scalar forms schema values and rule parameters share. Both are parsed by the same rules and refused with
    /// the same messages (`expected <noun>, got '<raw>'`, `value <shown> is out of range`, `'<raw>' is not allowed`).
    enum ScalarForm {
        case integer(ClosedRange<Int>)
        case number(ClosedRange<Double>)
        /// A number the predicate accepts (shares, positive numbers).
        case numberWhere((Double) -> Bool)
        case boolean
        case choice([String])
    }

    /// Checks text against a shared scalar form; `noun` and `allowed` word the messages. The value comes back as a
    /// rule-parameter value (`.int`, `.number`, `.bool`, `.text`).
    mutating func checkForm(_ raw: String, _ form: ScalarForm, noun: String, allowed: String, at path: KeyPath, mark: Mark?) -> ParameterValue? {
        func wrongType() -> ParameterValue? {
            report(.wrongType, path, at: mark, "expected \(noun), got '\(raw.echoed())'", value: raw, allowed: allowed)
            return nil
        }
        func outOfRange(_ shown: String) -> ParameterValue? {
            report(.outOfRange, path, at: mark, "value \(shown) is out of range", value: raw, allowed: allowed)
            return nil
        }
        switch form {
        case .integer(let r):
            guard let i = Self.parseInteger(raw) else { return wrongType() }
            return r.contains(i) ? .int(i) : outOfRange(String(i))
        case .number(let r):
            guard let d = Self.parseNumber(raw) else { return wrongType() }
            return r.contains(d) ? .number(d) : outOfRange(raw)
        case .numberWhere(let accepts):
            guard let d = Self.parseNumber(raw) else { return wrongType() }
            return accepts(d) ? .number(d) : outOfRange(raw)
        case .boolean:
            guard let b = Self.parseBool(raw) else { return wrongType() }
            return .bool(b)
        case .choice(let words):
            guard words.contains(raw) else {
                report(.outOfRange, path, at: mark, "'\(raw.echoed())' is not allowed", value: raw, allowed: allowed,
                       suggestion: Suggestion.closest(to: raw, among: words))
                return nil
            }
            return .text(raw)
        }
    }

    mutating func checkScalar(_ raw: String, _ kind: ScalarKind, at path: KeyPath, mark: Mark?) -> ScenarioValue? {
        // No number, date, zone or name is this long: refuse without scanning it (aliases may repeat it 10⁵ times).
        if kind != .text && raw.utf8.count > 256 {
            report(.wrongType, path, at: mark, "expected \(kind.noun), got \(raw.utf8.count) bytes of text", value: String(raw.prefix(40)),
                   allowed: kind.description)
            return nil
        }
        func shared(_ form: ScalarForm) -> ScenarioValue? {
            switch checkForm(raw, form, noun: kind.noun, allowed: kind.description, at: path, mark: mark) {
            case .int(let i)?: return .int(i)
            case .number(let d)?: return .number(d)
            case .bool(let b)?: return .bool(b)
            case .text(let t)?: return .text(t)
            case .list, nil: return nil
            }
        }
        switch kind {
        case .text:
            return .text(raw)
        case .identifier:
            guard Self.isIdentifier(raw) else {
                let shown = raw.count > 40 ? "'\(raw.prefix(40))…' (\(raw.count) characters)" : "'\(raw.echoed())'"
                report(.outOfRange, path, at: mark, "\(shown) is not a usable name", value: String(raw.prefix(40)), allowed: kind.description)
                return nil
            }
            return .text(raw)
        case .integer(let r):
            return shared(.integer(r))
        case .unsigned:
            let t = raw.replacingOccurrences(of: "_", with: "")
            if let u = UInt64(t) { return .unsigned(u) }
            if Self.parseInteger(raw) != nil || t.allSatisfy(\.isNumber) && !t.isEmpty {
                report(.outOfRange, path, at: mark, "value \(raw) is out of range", value: raw, allowed: kind.description)
            } else {
                report(.wrongType, path, at: mark, "expected \(kind.noun), got '\(raw.echoed())'", value: raw, allowed: kind.description)
            }
            return nil
        case .number(let r):
            return shared(.number(r))
        case .share:
            return shared(.numberWhere { $0 > 0 && $0 <= 1 })
        case .positive:
            return shared(.numberWhere { $0 > 0 })
        case .boolean:
            return shared(.boolean)
        case .choice(let words):
            return shared(.choice(words))
        case .product:
            guard products.isEmpty || products.contains(raw) else {
                report(.outOfRange, path, at: mark, "'\(raw.echoed())' is not allowed", value: raw, allowed: "one of " + AllowedList.text(products, seeAlso: "habitat list"),
                       suggestion: Suggestion.closest(to: raw, among: products))
                return nil
            }
            return .text(raw)
        case .date:
            guard let d = LocalDate(iso: raw) else {
                report(.badDate, path, at: mark, "'\(raw.echoed())' is not a valid date", value: raw, allowed: kind.description)
                return nil
            }
            guard Self.dateYears.contains(d.year) else {
                report(.outOfRange, path, at: mark, "the year \(d.year) is out of range", value: raw, allowed: kind.description)
                return nil
            }
            return .date(d)
        case .timeZone:
            do {
                _ = try ZoneCalendar(identifier: raw, startingOn: ScenarioSchema.defaultStart, days: 1)
                return .text(raw)
            } catch {
                if case let .unknownZone(_, suggestion) = error {
                    report(.badZone, path, at: mark, "unknown time zone '\(raw.echoed())'", value: raw, allowed: kind.description, suggestion: suggestion)
                }
                return nil
            }
        }
    }
}

extension ParameterKind {
    /// The noun used in "expected …, got …" messages.
    var noun: String {
        switch self {
        case .integer: return "an integer"
        case .number: return "a number"
        case .boolean: return "true or false"
        case .choice: return "a word"
        case .timeOfDay: return "a time of day HH:MM"
        case .weekdays: return "a list of weekdays"
        }
    }
}
