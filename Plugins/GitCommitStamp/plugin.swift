// Stamps the git commit of the source tree into the target it is applied to, at build time.
import Foundation
import PackagePlugin

/// A build-tool plugin that writes `GitCommitStamp.swift` (an internal `enum GitCommitStamp` with the commit and a
/// dirty flag) into the plugin's work directory, so a binary reports the commit it was built from wherever it is
/// moved to.
///
/// The commit is read with `git rev-parse HEAD` and the dirty flag with
/// `git status --porcelain --untracked-files=no` (tracked files changed), both with `GIT_OPTIONAL_LOCKS=0` so the
/// build never refreshes the index or takes its lock. Only a repository whose top level is the package's own
/// folder counts: a source tarball unpacked inside another repository, a tree without `.git` or a machine without
/// git all build, with the commit unknown (`nil`). The file is replaced only when its text changes, so an
/// unchanged tree does not recompile the target.
///
/// When it runs: a build command whose inputs are every file of the package (except build products and `.git`)
/// and the repository's `HEAD`, `logs/HEAD` (moved by every commit, checkout and reset), `index` and
/// `packed-refs`. Editing a tracked file, committing or checking out therefore re-stamps on the next build, and
/// an unchanged tree costs nothing. (A prebuild command would be the natural fit, but SwiftPM runs prebuild
/// commands only when it re-plans the build, not on every build — swift-package-manager issue 5476 — so a
/// commit or an edit to an existing file would leave the stamp stale.)
@main
struct GitCommitStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let file = context.pluginWorkDirectoryURL.appending(path: "Generated").appending(path: "GitCommitStamp.swift")
        var environment = ["GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"]
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return [.buildCommand(
            displayName: "Stamping the git commit into \(target.name)",
            executable: URL(filePath: "/bin/sh"),
            arguments: ["-c", Self.script, "git-commit-stamp", root.path(percentEncoded: false), file.path(percentEncoded: false)],
            environment: environment,
            inputFiles: Self.packageFiles(root) + Self.gitStateFiles(root),
            outputFiles: [file]
        )]
    }

    /// Every file of the package, skipping build products, caches and the repository itself.
    static func packageFiles(_ root: URL) -> [URL] {
        let skipped: Set<String> = [".build", ".git", ".swiftpm", "__pycache__", ".ipynb_checkpoints"]
        var files: [URL] = []
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey]) else { return [] }
        for case let url as URL in walk {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true, skipped.contains(url.lastPathComponent) { walk.skipDescendants(); continue }
            if values?.isRegularFile == true { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The files git changes when HEAD moves or the index changes: `HEAD`, `logs/HEAD`, `index` of the checkout's
    /// git folder (`.git`, or the folder a worktree's `.git` file names) and `packed-refs` and the current branch's
    /// ref in the common folder. Only those that exist; none without a repository.
    static func gitStateFiles(_ root: URL) -> [URL] {
        let dotGit = root.appending(path: ".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path(percentEncoded: false), isDirectory: &isDirectory) else { return [] }
        var gitDir = dotGit
        if !isDirectory.boolValue {
            // A worktree or submodule: `.git` is a file "gitdir: PATH".
            guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") else { return [] }
            let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDir = path.hasPrefix("/") ? URL(filePath: path) : root.appending(path: path)
        }
        var commonDir = gitDir
        if let common = try? String(contentsOf: gitDir.appending(path: "commondir"), encoding: .utf8) {
            let path = common.trimmingCharacters(in: .whitespacesAndNewlines)
            commonDir = path.hasPrefix("/") ? URL(filePath: path) : gitDir.appending(path: path)
        }
        var candidates = [gitDir.appending(path: "HEAD"), gitDir.appending(path: "logs/HEAD"), gitDir.appending(path: "index"),
                          commonDir.appending(path: "packed-refs")]
        if let head = try? String(contentsOf: gitDir.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref:") {
            candidates.append(commonDir.appending(path: head.dropFirst("ref:".count).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return candidates.filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
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
        // Generated at build time by the GitCommitStamp plugin (Plugins/GitCommitStamp); do not edit.

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
