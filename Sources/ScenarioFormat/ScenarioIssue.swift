import RulesCore

/// One problem found in a scenario: where it is, which key, what was given and what is allowed.
///
/// Issues are collected while a whole scenario is checked, so that one run of `habitat validate` names every
/// problem at once (docs/DESIGN.md, "Style": errors that speak to a person).
public struct ScenarioIssue: Hashable, Sendable, CustomStringConvertible {
    /// What sort of problem an issue is; lets tests and tools react without parsing the message.
    public enum Kind: String, Hashable, Sendable {
        /// The file is not well-formed YAML.
        case syntax
        /// A key the schema (or the product's rule catalogue) does not know.
        case unknownKey
        /// The same key twice in one map.
        case duplicateKey
        /// A required key is absent.
        case missingKey
        /// A value of the wrong type (text where a number belongs, a list where a map belongs, …).
        case wrongType
        /// A number outside its allowed range, or a word not among the allowed ones.
        case outOfRange
        /// Two list items share a name that must be unique (arms, personas).
        case duplicateName
        /// A date that is not `YYYY-MM-DD` or does not exist.
        case badDate
        /// A time-zone identifier not in the tz database.
        case badZone
        /// Shares of a population mix do not add up to 1.
        case sharesDoNotSumToOne
        /// Anything else that makes the scenario unusable (e.g. rules for a product with no catalogue).
        case invalid
    }

    /// The scenario file (as given to the loader), or `<command line>` for overrides.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?
    /// Where in the scenario, e.g. `rules.tokens.monthly_purchase_cap` or `population.personas[1].share`.
    public var keyPath: String
    /// What sort of problem this is.
    public var kind: Kind
    /// The problem in words, including the value given, e.g. `value 50 is out of range`.
    public var message: String
    /// The value as written, when there is one.
    public var value: String?
    /// What is allowed, e.g. `an integer in 0…20`.
    public var allowed: String?
    /// The likely intended word for an unknown key or value ("did you mean …").
    public var suggestion: String?

    /// Creates an issue.
    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String, kind: Kind, message: String,
                value: String? = nil, allowed: String? = nil, suggestion: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.kind = kind
        // What the scenario or the command line held is quoted cut (`echoed`) where the message is made; a message
        // longer than any Habitat writes is cut here too, so that no input makes an unreadable line (issue 30).
        self.message = message.echoed(limit: Self.longestMessage)
        // A value is shown, not stored whole: a megabyte of text repeated by aliases must not be copied per issue.
        self.value = value?.echoed()
        self.allowed = allowed
        self.suggestion = suggestion?.echoed()
    }

    /// The longest message an issue keeps (longer ones are cut, saying how long they were).
    public static let longestMessage = 600

    /// `file.yaml:12:5`, `file.yaml:12` or `file.yaml` (a very long path cut, `echoedPath`).
    public var location: String {
        switch (line, column) {
        case let (l?, c?): return "\(file.echoedPath):\(l):\(c)"
        case let (l?, nil): return "\(file.echoedPath):\(l)"
        default: return file.echoedPath
        }
    }

    /// Compiler style: `file.yaml:12:5: error: rules.tokens.monthly_purchase_cap: value 50 is out of range; allowed an integer in 0…20`.
    public var description: String {
        var text = "\(location): error: "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        text += message
        if let allowed { text += "; allowed \(allowed)" }
        if let suggestion { text += "; did you mean '\(suggestion)'?" }
        return text
    }
}

/// Every problem found while loading a scenario; thrown by `ScenarioLoader`.
///
/// Its description reads like compiler output: one `file:line:column: error: key.path: message` line per issue,
/// then a count.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in the order they appear in the file (command-line problems last).
    public var issues: [ScenarioIssue]

    /// Wraps a list of issues.
    public init(issues: [ScenarioIssue]) { self.issues = issues }

    /// One line per issue and a final count, e.g. `2 errors in premium.yaml`.
    public var description: String {
        var lines = issues.map(\.description)
        let files = Array(Set(issues.map(\.file.echoedPath))).sorted()
        let count = issues.count == 1 ? "1 error" : "\(issues.count) errors"
        lines.append(files.isEmpty ? count : "\(count) in \(files.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }
}
