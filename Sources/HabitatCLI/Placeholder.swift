/// Placeholder until the target lands.
enum _HabitatCLIPlaceholder {}
