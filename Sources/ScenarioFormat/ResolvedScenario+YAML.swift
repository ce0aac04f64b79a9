import RulesCore

extension ResolvedScenario {
    /// The fully resolved scenario as YAML: fixed key order, sorted rule keys, numbers in shortest exact form.
    ///
    /// Top-level `rules` lists every parameter; an arm lists only the rules where it differs from the top level,
    /// and its `population` only when it differs. Loading this text again gives an equal `ResolvedScenario`
    /// (command-line overrides are already folded in).
    public var yaml: String {
        var w = YAMLWriter()
        w.line(0, "name", YAMLWriter.string(name))
        w.line(0, "product", product.rawValue)
        w.line(0, "seed", String(seed))
        w.line(0, "start", start.description)
        w.line(0, "horizon_days", String(horizonDays))
        w.line(0, "replications", String(replications))
        w.key(0, "population")
        w.population(population, indent: 2)
        w.rules(rules.values, indent: 0)
        w.key(0, "arms")
        for arm in arms {
            w.out += "  - name: \(YAMLWriter.string(arm.name))\n"
            let diff = arm.rules.values.filter { rules[$0.key] != $0.value }
            if !diff.isEmpty { w.rules(diff, indent: 4) }
            if arm.population != population {
                w.key(4, "population")
                w.population(arm.population, indent: 6, differingFrom: population)
            }
        }
        if sweep.isEmpty {
            w.line(0, "sweep", "{}")
        } else {
            w.key(0, "sweep")
            for axis in sweep.axes { w.line(2, axis.keyPath, YAMLWriter.flow(.list(axis.values))) }
            if !sweep.zip.isEmpty {
                w.key(2, "zip")
                for group in sweep.zip { w.out += "    - [" + group.map(YAMLWriter.string).joined(separator: ", ") + "]\n" }
            }
        }
        w.key(0, "outputs")
        w.line(2, "dir", YAMLWriter.string(outputs.dir))
        w.line(2, "trace_people", "[" + outputs.tracePeople.map(String.init).joined(separator: ", ") + "]")
        return w.out
    }

    /// A stable id of the resolved scenario for manifests: FNV-1a 64-bit of `yaml`, 16 hex digits.
    public var scenarioHash: String { FNV1a64.hex(yaml) }
}

/// Writes the small YAML subset the resolved scenario needs, deterministically.
struct YAMLWriter {
    var out = ""

    mutating func key(_ indent: Int, _ key: String) { out += String(repeating: " ", count: indent) + key + ":\n" }
    mutating func line(_ indent: Int, _ key: String, _ value: String) {
        out += String(repeating: " ", count: indent) + key + ": " + value + "\n"
    }

    /// A population; with `base`, only the keys whose values differ from it (an arm's overrides).
    mutating func population(_ p: PopulationSpec, indent: Int, differingFrom base: PopulationSpec? = nil) {
        let pad = String(repeating: " ", count: indent)
        if p.installs != base?.installs { line(indent, "installs", String(p.installs)) }
        if p.personas != base?.personas {
            key(indent, "personas")
            personas(p.personas, pad: pad)
        }
        if p.devices != base?.devices {
            key(indent, "devices")
            for d in p.devices { out += pad + "  - model: \(Self.string(d.model))\n" + pad + "    share: \(formatNumber(d.share))\n" }
        }
        if p.timeZones != base?.timeZones {
            key(indent, "time_zones")
            for z in p.timeZones { out += pad + "  - zone: \(Self.string(z.zone))\n" + pad + "    share: \(formatNumber(z.share))\n" }
        }
    }

    mutating func personas(_ list: [PersonaShare], pad: String) {
        for persona in list {
            out += pad + "  - name: \(Self.string(persona.name))\n"
            out += pad + "    share: \(formatNumber(persona.share))\n"
            if !persona.params.isEmpty {
                out += pad + "    params:\n"
                for k in persona.params.keys.sorted() { out += pad + "      \(Self.string(k)): \(persona.params[k]!)\n" }
            }
        }
    }

    /// `rules:` as nested maps from dotted key paths, keys sorted.
    mutating func rules(_ values: [String: ParameterValue], indent: Int) {
        guard !values.isEmpty else { line(indent, "rules", "{}"); return }
        key(indent, "rules")
        var open: [Substring] = []
        for k in values.keys.sorted() {
            var parts = k.split(separator: ".")
            let leaf = parts.removeLast()
            var common = 0
            while common < min(open.count, parts.count), open[common] == parts[common] { common += 1 }
            open = Array(open.prefix(common))
            for p in parts.dropFirst(common) {
                self.key(indent + 2 + 2 * open.count, String(p))
                open.append(p)
            }
            line(indent + 2 + 2 * open.count, String(leaf), Self.flow(values[k]!))
        }
    }

    /// A rule value in flow style: `5`, `5.99`, `true`, `"23:00"`, `[mon, tue]`.
    static func flow(_ v: ParameterValue) -> String {
        switch v {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .number(let d): return formatNumber(d)
        case .text(let s): return string(s)
        case .list(let l): return "[" + l.map(flow).joined(separator: ", ") + "]"
        }
    }

    /// Text plain when it cannot be read as anything else, double-quoted otherwise.
    static func string(_ s: String) -> String {
        let safe = s.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0)) && $0.isASCII }
        let startsWithLetter = s.unicodeScalars.first.map { $0.properties.isAlphabetic && $0.isASCII } ?? false
        let ambiguous = ScenarioChecker.parseBool(s) != nil || ["null", "Null", "NULL", "~"].contains(s)
        if safe && startsWithLetter && !ambiguous { return s }
        var escaped = ""
        for c in s.unicodeScalars {
            switch c {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(c)
            }
        }
        return "\"" + escaped + "\""
    }
}
