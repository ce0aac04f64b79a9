import Foundation
import RulesCore
import Yams

/// YAML text → nodes. Yams refuses duplicate keys; the loader renames each later occurrence to a sentinel, parses
/// again, and the checker reports the duplicate with everything else.
extension ScenarioLoader {
    struct Composed {
        var root: Node?
        var duplicates: [String: (key: String, first: Mark?)] = [:]
        var syntaxIssue: ScenarioIssue?
    }

    /// Parses YAML into nodes. Duplicate keys (which Yams refuses) are renamed to sentinels and reported later
    /// with everything else; other syntax errors become one located issue.
    static func compose(_ yaml: String, file: String) -> Composed {
        var text = yaml
        var result = Composed()
        for attempt in 0...maxDuplicateReparses {
            do {
                result.root = try Yams.compose(yaml: text)
                return result
            } catch let YamlError.duplicatedKeysInMapping(keys, context) {
                let key = keys.first ?? ""
                let sentinel = "__habitat_duplicate_\(attempt)__"
                guard let renamed = renameLaterOccurrence(of: key, after: context.mark, in: text, to: sentinel) else {
                    result.syntaxIssue = ScenarioIssue(file: file, line: context.mark.line, column: context.mark.column, keyPath: key,
                                                       kind: .duplicateKey, message: "duplicate key '\(key.echoed())'", value: key,
                                                       allowed: "each key once per map")
                    return result
                }
                text = renamed
                result.duplicates[sentinel] = (key, context.mark)
            } catch let error as YamlError {
                result.syntaxIssue = syntaxIssue(error, file: file)
                return result
            } catch {
                result.syntaxIssue = ScenarioIssue(file: file, keyPath: "", kind: .syntax, message: "YAML syntax error: \(error)")
                return result
            }
        }
        // Each duplicate costs one more parse of the whole text: past a handful, report the next one and stop.
        do {
            _ = try Yams.compose(yaml: text)
        } catch let YamlError.duplicatedKeysInMapping(keys, context) {
            result.syntaxIssue = ScenarioIssue(file: file, line: context.mark.line, column: context.mark.column, keyPath: keys.first ?? "",
                                               kind: .duplicateKey,
                                               message: "duplicate key '\((keys.first ?? "").echoed())' (more than \(maxDuplicateReparses) duplicate keys; "
                                               + "fix these and validate again to see the rest)",
                                               value: keys.first, allowed: "each key once per map")
        } catch {}
        return result
    }

    /// Duplicate keys reported (each makes the loader parse the text once more).
    static let maxDuplicateReparses = 10

    static func syntaxIssue(_ error: YamlError, file: String) -> ScenarioIssue {
        func issue(_ problem: String, _ context: YamlError.Context?, _ mark: Mark) -> ScenarioIssue {
            var message = "YAML syntax error: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return ScenarioIssue(file: file, line: mark.line, column: mark.column, keyPath: "", kind: .syntax, message: message)
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            // libyaml names its own API in this one; say what it means.
            if problem.lowercased().contains("nesting level") {
                return ScenarioIssue(file: file, line: mark.line, column: mark.column, keyPath: "", kind: .syntax,
                                     message: "the YAML nests maps or lists too deeply (libyaml's limit)",
                                     allowed: "a scenario a few levels deep")
            }
            return issue(problem, context, mark)
        case let .reader(problem, _, _, _):
            return ScenarioIssue(file: file, keyPath: "", kind: .syntax, message: "cannot read the text: \(problem)")
        default:
            return ScenarioIssue(file: file, keyPath: "", kind: .syntax, message: "YAML syntax error: \(error)")
        }
    }

    /// Renames the next occurrence of block-mapping key `key` at the same column as `first` (the duplicate).
    static func renameLaterOccurrence(of key: String, after first: Mark, in text: String, to sentinel: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let forms = [key, "\"\(key)\"", "'\(key)'"]
        for i in first.line..<lines.count {
            let scalars = Array(lines[i].unicodeScalars)
            let col = first.column - 1
            guard col <= scalars.count else { continue }
            let prefix = String(String.UnicodeScalarView(scalars[..<col]))
            guard prefix.allSatisfy({ $0 == " " || $0 == "-" }) else { continue }
            let rest = String(String.UnicodeScalarView(scalars[col...]))
            for form in forms where rest.hasPrefix(form) {
                let after = rest.dropFirst(form.count).drop(while: { $0 == " " || $0 == "\t" })
                if after.hasPrefix(":") {
                    lines[i] = prefix + sentinel + rest.dropFirst(form.count)
                    return lines.joined(separator: "\n")
                }
            }
        }
        return renameInFlowMap(of: key, after: first, in: lines, to: sentinel)
    }

    /// The same for a flow map (`{installs: 1, installs: 2}`), whose mark is its opening brace: the second
    /// `key:` after the brace, preceded by `{`, `,` or a space, is renamed.
    static func renameInFlowMap(of key: String, after first: Mark, in lines: [String], to sentinel: String) -> String? {
        var text = lines.joined(separator: "\n")
        var offset = text.startIndex
        for line in lines.prefix(first.line - 1) { offset = text.index(offset, offsetBy: line.count + 1, limitedBy: text.endIndex) ?? text.endIndex }
        offset = text.index(offset, offsetBy: max(0, first.column - 1), limitedBy: text.endIndex) ?? text.endIndex
        var found = 0
        var search = offset
        for form in [key, "\"\(key)\"", "'\(key)'"] where found < 2 {
            found = 0
            search = offset
            while let r = text.range(of: form, range: search..<text.endIndex) {
                let before = r.lowerBound == text.startIndex ? " " : text[text.index(before: r.lowerBound)]
                let after = text[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
                if "{, \t\n".contains(before), after.hasPrefix(":") {
                    found += 1
                    if found == 2 {
                        text.replaceSubrange(r, with: sentinel)
                        return text
                    }
                }
                search = r.upperBound
            }
        }
        return nil
    }
}
