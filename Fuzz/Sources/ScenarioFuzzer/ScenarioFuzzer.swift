// libFuzzer target for Habitat's scenario parser and validator (ScenarioFormat), with the real Scroll Off
// rule catalogue. Every input is loaded as a scenario file; a thrown `ScenarioError` is an expected outcome,
// anything else (a trap, a sanitizer report, a hang, a leak) is a finding. A scenario that loads must render
// to YAML that loads again to the same scenario.
//
// Build and run: see Fuzz/README.md (`make fuzz-smoke`, `make fuzz`).
import Foundation
import ScenarioFormat
import ScrollOffRules

/// The loader `habitat` uses for Scroll Off (the other products have no catalogue yet, as in the CLI), without a
/// population catalogue or KPI ids, so that the corpus's made-up persona names reach every later stage.
let loader = ScenarioLoader(catalogues: ProductCatalogues([.scrollOff: ScrollOffParameters.catalogue]))

/// The same with a stand-in population catalogue and KPI ids (the behaviour and energy models live in targets this
/// package does not link; the CLI registers the real ones through `Products.catalogues`). Checking names only
/// refuses more: whatever it accepts must load to the same scenario as with `loader`.
let checkedLoader: ScenarioLoader = {
    let parameters = [("pickups_per_day", 5.0...400.0), ("burstiness", 0...0.9), ("sleep_hours", 3...12), ("self_efficacy", 0...1), ("x", 0...10)]
        .map { PopulationCatalogue.Parameter(name: $0.0, range: $0.1) }
    let personas = ["general", "student", "worker", "late-night-scroller", "adhd-adult", "a", "b"]
    return ScenarioLoader(catalogues: ProductCatalogues(
        [.scrollOff: ScrollOffParameters.catalogue],
        kpis: [.scrollOff: ["d1_retention", "free_to_paid_14d", "pickups_per_day", "mrr"]],
        population: PopulationCatalogue(personas: Dictionary(uniqueKeysWithValues: personas.map { ($0, parameters) }),
                                        devices: ["iphone-se-3", "iphone-12", "iphone-13", "iphone-14", "iphone-15"])))
}()

/// Loads `text` with the name-checking loader: a refusal must render; an acceptance must equal `loader`'s result.
func exerciseChecked(_ text: String) {
    let checked: ResolvedScenario
    do {
        checked = try checkedLoader.load(yaml: text, fileName: fileName)
    } catch {
        _ = error.description
        return
    }
    guard let plain = try? loader.load(yaml: text, fileName: fileName) else {
        finding("the name-checking loader accepts a scenario the plain loader refuses", text)
    }
    if plain != checked { finding("the name-checking loader resolves a scenario differently", text) }
}

/// A scratch folder standing in for the scenario file's folder, with a small install-curve CSV that
/// `population.acquisition.csv: installs.csv` (a seed in the corpus) reads.
let sandbox: String = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try? "date,installs\n2026-01-05,100\n2026-01-06,250\n2026-02-01,80\n"
        .write(to: dir.appendingPathComponent("installs.csv"), atomically: true, encoding: .utf8)
    atexit { try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.path + "/habitat-fuzz-\(getpid())") }
    return dir.path
}()

/// The scenario's file name: in the sandbox, so relative CSV paths resolve there.
let fileName: String = sandbox + "/fuzz.yaml"

/// Key paths the command-line override path is tried with: every `overridableKeys` entry, every fourth rule
/// parameter of the catalogue, and keys the loader must refuse.
let overrideKeys: [String] = ScenarioSchema.overridableKeys
    + stride(from: 0, to: ScrollOffParameters.catalogue.count, by: 4).map { "rules." + ScrollOffParameters.catalogue[$0].keyPath }
    + ["rules.no.such.rule", "rules.", "population.personas", "sweep", ""]

/// Fails loudly: libFuzzer records the input as a crash.
func finding(_ what: String, _ yaml: String) -> Never {
    FileHandle.standardError.write(Data("ScenarioFuzzer: \(what)\n--- rendered YAML ---\n\(yaml)\n---\n".utf8))
    fatalError(what)
}

/// Loads `text`; on success renders the resolved scenario (YAML, explain table) and checks the round trip:
/// the YAML loads again, to an equal scenario that renders to the same YAML (without overrides).
/// Returns true when the scenario loaded.
@discardableResult
func exercise(_ text: String, overrides: ScenarioOverrides) -> Bool {
    let scenario: ResolvedScenario
    do {
        scenario = try loader.load(yaml: text, fileName: fileName, overrides: overrides)
    } catch {
        _ = error.description // rendering every issue must not trap either
        return false
    }
    let yaml = scenario.yaml
    _ = scenario.explain(ScrollOffParameters.catalogue)
    _ = scenario.scenarioHash
    let again: ResolvedScenario
    do {
        again = try loader.load(yaml: yaml, fileName: fileName)
    } catch {
        finding("the rendered YAML of a loaded scenario does not load again:\n\(error.description)", yaml)
    }
    // With command-line overrides only "loads again" is required: `--people` over a sweep of
    // `population.installs` renders the sweep's own values, which win again on reloading (see README.md).
    guard overrides == .none else { return true }
    if again != scenario {
        let fields: [(String, Bool)] = [
            ("name", again.name == scenario.name), ("product", again.product == scenario.product), ("seed", again.seed == scenario.seed),
            ("start", again.start == scenario.start), ("horizonDays", again.horizonDays == scenario.horizonDays),
            ("replications", again.replications == scenario.replications), ("population", again.population == scenario.population),
            ("rules", again.rules == scenario.rules), ("arms", again.arms == scenario.arms), ("sweep", again.sweep == scenario.sweep),
            ("precision", again.precision == scenario.precision), ("outputs", again.outputs == scenario.outputs),
        ]
        var differing = fields.filter { !$0.1 }.map(\.0).joined(separator: ", ")
        for (a, b) in zip(scenario.arms, again.arms) where a != b {
            differing += "\narm \(a.name): name \(a.name == b.name), rules \(a.rules == b.rules), population \(a.population == b.population), "
                + "fromSweep \(a.fromSweep == b.fromSweep)"
            for (k, v) in a.rules.values where b.rules[k] != v { differing += "\n  rules.\(k): \(v) → \(b.rules[k].map(String.init(describing:)) ?? "nil")" }
        }
        if scenario.arms.count != again.arms.count { differing += "\n\(scenario.arms.count) arms → \(again.arms.count)" }
        finding("the rendered YAML loads to a different scenario (\(differing) differ):\n\(scenario)\n--- loaded again ---\n\(again)", yaml)
    }
    if again.yaml != yaml { finding("rendering is not stable: YAML → load → YAML differs", yaml + "\n--- again ---\n" + again.yaml) }
    return true
}

/// One override (key, value) derived from the input: the key from its first byte, the value from its last line.
func override(from bytes: UnsafeBufferPointer<UInt8>, text: String) -> ScenarioOverrides {
    let key = overrideKeys[Int(bytes[0]) % overrideKeys.count]
    let lastLine = text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    let value = String(lastLine.trimmingCharacters(in: .whitespaces).prefix(200))
    return ScenarioOverrides(values: [key: value])
}

/// A scenario touching every part of the schema, loaded once before fuzzing so that lazily built globals (the
/// schema, the catalogue, Yams's and Foundation's tables) exist before libFuzzer starts counting allocations.
let warmUp = """
    name: warm-up
    start: 2026-01-05
    horizon_days: 30
    population:
      installs: 50
      acquisition: {csv: installs.csv, weekly_seasonality: [1, 1, 1, 1, 1, 2, 2]}
      personas:
        - {name: a, share: 0.5, params: {x: 1, y: {distribution: normal, mean: 1, sd: 2}}}
        - {name: b, share: 0.5, params: {z: {distribution: beta, alpha: 1, beta: 2}}}
      devices: [{model: iphone-13, share: 1}]
      time_zones: [{zone: Europe/Berlin, share: 0.5}, {zone: America/New_York, share: 0.5}]
    rules: {}
    arms: [{name: control}, {name: other, population: {installs: 60}}]
    sweep: {population.installs: [10, 20], population.params.x: [1, 2], zip: [[population.installs, population.params.x]]}
    precision: {kpis: {mrr: 10}, max_replications: 5}
    outputs: {dir: out, trace_people: [1, 2]}
    """

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    do { _ = try loader.load(yaml: warmUp, fileName: fileName) } catch { fatalError("the warm-up scenario does not load:\n\(error)") }
    exercise(warmUp, overrides: .none)
    exerciseChecked(warmUp)
    for key in overrideKeys { exercise(warmUp, overrides: ScenarioOverrides(values: [key: "1"])) }
    _ = try? loader.load(yaml: "{", fileName: fileName)
    _ = try? loader.load(path: sandbox + "/missing.yaml")
    return 0
}

/// LeakSanitizer cannot see pointers that Swift stores with enum tags in their spare bits, so a global built
/// once (the schema's indirect enums, behind `swift_once`) looks leaked. Those live for the whole process;
/// anything else that leaks is still reported.
@_cdecl("__lsan_default_suppressions")
public func lsanDefaultSuppressions() -> UnsafePointer<CChar> {
    let text: StaticString = "leak:swift::threading_impl::once_slow\n"
    return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self) // invalid UTF-8 becomes U+FFFD
    let loaded = exercise(text, overrides: .none)
    exerciseChecked(text)

    // Command-line overrides: on every scenario that loads and on a quarter of the others.
    if size > 0, loaded || bytes[0] & 3 == 0 {
        exercise(text, overrides: override(from: bytes, text: text))
    }

    // The file path of `habitat run FILE`: bytes that are not UTF-8 must be refused there, not decoded.
    if String(validating: bytes, as: UTF8.self) == nil {
        let path = sandbox + "/raw.yaml"
        if FileManager.default.createFile(atPath: path, contents: Data(bytes)) {
            do {
                _ = try loader.load(path: path)
            } catch {
                _ = error.description
            }
        }
    }
    return 0
}

// SwiftPM links an executable target with `main` pointing at `<target>_main` (for test discovery); with
// `-parse-as-library` there is no Swift entry point, so that symbol starts libFuzzer's driver here.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("ScenarioFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzz)
}
