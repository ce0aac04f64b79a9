import RulesCore
/// Shard K of N of a run (`habitat run --shard K/N`, 1 ≤ K ≤ N): a fixed, contiguous block of person ids in every
/// arm and replication.
///
/// The partition of an arm with `installs` people gives shard K the ids `⌊(K−1)·installs/N⌋ ..< ⌊K·installs/N⌋`:
/// the blocks are disjoint, cover every person once, differ in size by at most one person, and depend only on K, N
/// and the arm's size — never on the thread count, the machine or the order shards run in. Arms of the same size
/// therefore give a shard the same people, so arms stay paired inside a shard.
public struct ShardSpec: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1-based shard number.
    public let index: Int
    /// Number of shards.
    public let count: Int
    /// The largest shard count accepted.
    public static let maxCount = 100_000

    /// Shard `index` of `count`; nil unless 1 ≤ index ≤ count ≤ `maxCount`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maxCount, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`; throws a message saying what is allowed.
    public init(parsing text: String) throws(ShardSpecError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ShardSpecError(message: "--shard '\(text.echoed())' is not K/N (e.g. --shard 2/8: the second of 8 shards)")
        }
        guard let spec = ShardSpec(index: k, count: n) else {
            throw ShardSpecError(message: "--shard \(text) is out of range; allowed K/N with 1 ≤ K ≤ N ≤ \(Self.maxCount)")
        }
        self = spec
    }

    /// The person ids of this shard in an arm of `installs` people.
    public func people(of installs: Int) -> Range<Int> {
        (index - 1) * installs / count ..< index * installs / count
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
    /// `shard-K-of-N`, for folder names.
    public var folderName: String { "shard-\(index)-of-\(count)" }
}

/// A `--shard` value that is not K/N with 1 ≤ K ≤ N.
public struct ShardSpecError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
