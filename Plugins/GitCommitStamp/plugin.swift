// Stamps the git commit of the source tree into the target it is applied to, at build time.
import Foundation
import PackagePlugin

/// A build-tool plugin that writes `GitCommitStamp.swift` (an internal `enum GitCommitStamp` with the commit and a
/// dirty flag) into the plugin's work directory before every build, so a binary reports the commit it was built
/// from wherever it is moved to.
///
/// The commit is read with `git rev-parse HEAD` and the dirty flag with
/// `git status --porcelain --untracked-files=no` (tracked files changed), both with `GIT_OPTIONAL_LOCKS=0` so the
/// build never refreshes the index or takes its lock. Only a repository whose top level is the package's own
/// folder counts: a source tarball unpacked inside another repository, a tree without `.git` or a machine without
/// git all build, with the commit unknown (`nil`). The file is replaced only when its text changes, so an
/// unchanged tree does not recompile the target.
@main
struct GitCommitStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let file = output.appending(path: "GitCommitStamp.swift")
        var environment = ["GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"]
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return [.prebuildCommand(
            displayName: "Stamping the git commit into \(target.name)",
            executable: URL(filePath: "/bin/sh"),
            arguments: ["-c", Self.script, "git-commit-stamp", context.package.directoryURL.path(percentEncoded: false), file.path(percentEncoded: false)],
            environment: environment,
            outputFilesDirectory: output
        )]
    }

    /// `$1` the package folder, `$2` the Swift file to write. Never fails because of git: without it, the commit is nil.
    static let script = #"""
        set -u
        root=$1 out=$2
        commit= dirty=false
        if command -v git >/dev/null 2>&1 && top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null) \
            && [ "$(cd "$top" && pwd -P)" = "$(cd "$root" && pwd -P)" ] \
            && head=$(git -C "$root" rev-parse --verify HEAD 2>/dev/null); then
            commit=$head
            if status=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null); then
                [ -n "$status" ] && dirty=true
            fi
        fi
        if [ -n "$commit" ]; then value="\"$commit\""; else value=nil; fi
        mkdir -p "${out%/*}"
        tmp="$out.tmp.$$"
        cat > "$tmp" <<SWIFT
        // Generated before every build by the GitCommitStamp plugin (Plugins/GitCommitStamp); do not edit.

        /// The git state of the source tree this module was built from.
        enum GitCommitStamp {
            /// \`git rev-parse HEAD\` at build time; nil when the tree is not a git checkout or git is missing.
            static let commit: String? = $value
            /// Whether tracked files differed from the commit (\`git status --porcelain --untracked-files=no\`).
            static let dirty = $dirty
        }
        SWIFT
        if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv -f "$tmp" "$out"; fi
        """#
}
