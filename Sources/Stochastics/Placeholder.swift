/// Placeholder until the target lands.
enum _StochasticsPlaceholder {}
