/// How much Habitat reads of any file it did not just write: one limit per kind of input, in one place
/// (docs/CONTRACT.md, "Input sizes"). Every reader checks the file's size against its limit before it allocates
/// anything for the contents, and again while it reads (a file may grow), and refuses past it in words: exit 2, the
/// file's path and `the file has N bytes; allowed at most M MB` (`InputFile.tooLarge`).
public enum InputLimits {
    /// A scenario (`run`, `validate`, `trace`, `check`, `calibrate` and its `--also` scenarios).
    public static let scenario = 100 << 20
    /// A CSV a scenario names (`acquisition.file`).
    public static let scenarioCSV = 64 << 20
    /// `calibrate --targets`.
    public static let targets = 16 << 20
    /// `check --tolerances`.
    public static let tolerances = 16 << 20
    /// A baseline's `baseline.json`.
    public static let baselineRecord = 1 << 20
    /// A report, baseline or shard folder's `manifest.json` (it carries the resolved scenario).
    public static let manifest = 512 << 20
    /// A report file of a run folder or baseline read back (`kpis.csv` for `compare` and `check`, every CSV a
    /// baseline's exact check compares).
    public static let reportFile = 512 << 20
    /// One line of a shard's `shard-state.jsonl` (the header, or one arm × replication's record). The file is read
    /// a line at a time and holds at most its header's records after the header, so it is bounded by this too.
    public static let shardStateLine = 128 << 20
    /// A destination's lock file `.NAME.lock` (a lock Habitat writes has a few hundred bytes).
    public static let runLock = 4096
    /// What is read of a file standing where a one-file output goes (`trace --out`, `compare --out`): its first line.
    public static let outputHeader = 64 << 10

    /// `N MB` for whole megabytes, else `N bytes`.
    public static func describe(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes) bytes" }
}
