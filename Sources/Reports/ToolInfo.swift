/// Identity of the tool that produced a report.
public enum ToolInfo {
    /// Habitat's version (semantic versioning).
    public static let version = "0.1.0"

    /// The git commit of the source tree this binary was built from (`<commit>`, or `<commit>-dirty` when tracked
    /// files differed from it), stamped at build time by the `GitCommitStamp` plugin (Plugins/GitCommitStamp), so a
    /// moved or copied binary still names its own commit; `unknown` when the tree was not a git checkout (a source
    /// tarball) or git was missing at build time.
    public static let gitCommit: String = {
        guard let commit = GitCommitStamp.commit else { return "unknown" }
        return GitCommitStamp.dirty ? commit + "-dirty" : commit
    }()
}
