/// What a scenario's `population` may name — personas, the behaviour parameters each accepts overrides of, and
/// device models — as plain data, so that validation can check them with line, column and "did you mean".
///
/// The behaviour model (`Behavior`) and the energy model (`Simulation`) own these lists; ScenarioFormat cannot
/// import them, so the caller builds a catalogue from them and registers it in `ProductCatalogues.population`
/// (`Products.catalogues` in `Simulation` does). Without one, persona and device names are not checked here.
public struct PopulationCatalogue: Sendable, Hashable {
    /// One behaviour parameter a scenario may override (`population.personas[i].params.<name>`).
    public struct Parameter: Sendable, Hashable {
        /// The name as a scenario writes it, e.g. `pickups_per_day`.
        public var name: String
        /// The range the behaviour model clamps drawn values to; a fixed override outside it is refused (it would
        /// be clamped silently).
        public var range: ClosedRange<Double>

        /// Creates a parameter.
        public init(name: String, range: ClosedRange<Double>) {
            self.name = name
            self.range = range
        }
    }

    /// Persona name → the parameters it accepts overrides of, in the order they are listed.
    public var personas: [String: [Parameter]]
    /// Device model ids, e.g. `iphone-13`.
    public var devices: [String]

    /// Creates a catalogue.
    public init(personas: [String: [Parameter]], devices: [String]) {
        self.personas = personas
        self.devices = devices
    }

    /// Persona names, sorted.
    public var personaNames: [String] { personas.keys.sorted() }

    /// Every parameter any persona accepts, by name (the first persona's entry when two differ).
    public var allParameters: [Parameter] {
        var seen = Set<String>()
        var all: [Parameter] = []
        for name in personaNames { for p in personas[name]! where seen.insert(p.name).inserted { all.append(p) } }
        return all
    }
}
