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
/// When it runs: a build command whose inputs are the files that are compiled or describe the build
/// (`Package.swift`, `Package.resolved`, everything under `Sources/`, `Plugins/` and `Tests/`) and git's state: the
/// `HEAD` file, the `logs/HEAD` reflog (appended by every commit, checkout, reset and amend) and the git folders
/// themselves (their entries change when git rewrites the index or a ref). Editing or committing a source file
/// therefore re-stamps on the next build, and an unchanged tree costs nothing.
///
/// Why not a prebuild command: SwiftPM runs prebuild commands only when it re-plans the build, not on every build
/// (swift-package-manager issue 5476), so a commit or an edit to an existing file would leave the stamp stale. Why
/// not every file of the package: a build command's inputs must exist, and SwiftPM re-plans (and asks the plugin
/// again) only when a target's folder changes — deleting a README elsewhere would fail the build with "missing
/// inputs". An edit outside those folders (a README, the Makefile) is stamped at the next build that re-stamps.
/// Removing `.git` from a checkout that was already built needs `swift package clean` once (its files are inputs).
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
            inputFiles: Self.buildFiles(root) + Self.gitStateFiles(root),
            outputFiles: [file]
        )]
    }

    /// `Package.swift`, `Package.resolved` and every file under `Sources/`, `Plugins/` and `Tests/` (folders
    /// SwiftPM watches: adding or deleting a file there re-plans the build, so the list never names a missing file).
    static func buildFiles(_ root: URL) -> [URL] {
        let skipped: Set<String> = [".build", ".swiftpm", "__pycache__"]
        var files = ["Package.swift", "Package.resolved"].map { root.appending(path: $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
        for folder in ["Sources", "Plugins", "Tests"] {
            guard let walk = FileManager.default.enumerator(at: root.appending(path: folder),
                                                            includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey]) else { continue }
            for case let url as URL in walk {
                let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
                if values?.isDirectory == true, skipped.contains(url.lastPathComponent) { walk.skipDescendants(); continue }
                if values?.isRegularFile == true { files.append(url) }
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// git's state: the checkout's git folder (`.git`, or the folder a worktree's `.git` file names) with its `HEAD`
    /// and `logs/HEAD`, and the common git folder of a worktree. Only those that exist; none without a repository.
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
        var candidates = [gitDir, gitDir.appending(path: "HEAD"), gitDir.appending(path: "logs/HEAD")]
        if let common = try? String(contentsOf: gitDir.appending(path: "commondir"), encoding: .utf8) {
            let path = common.trimmingCharacters(in: .whitespacesAndNewlines)
            candidates.append(path.hasPrefix("/") ? URL(filePath: path) : gitDir.appending(path: path))
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
