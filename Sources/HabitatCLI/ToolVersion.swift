import Reports

/// Version text shown by `habitat --version`.
enum ToolVersion {
    static var text: String { "\(ToolInfo.version) (\(ToolInfo.gitCommit))" }
}
