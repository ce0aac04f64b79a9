/// A value that can absorb another of its kind, so workers' partial results fold into one.
///
/// `merge` must be deterministic: merging the same parts in the same order gives bit-identical results.
public protocol Mergeable {
    mutating func merge(_ other: Self)
}
