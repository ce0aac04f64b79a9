/// Synthetic people (see README.md).
public enum BehaviorModel {}
