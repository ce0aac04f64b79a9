/// Placeholder until the target lands.
enum _ScenarioFormatPlaceholder {}
