/// The key columns every report starts with (CONTRACT.md): `scenario,arm,replication,product`.
public struct ReportKeys: Hashable, Sendable {
    public var scenario: String
    public var arm: String
    /// 1…N, or nil for rows pooled over replications (written `all`).
    public var replication: Int?
    public var product: String

    public init(scenario: String, arm: String, replication: Int?, product: String) {
        self.scenario = scenario
        self.arm = arm
        self.replication = replication
        self.product = product
    }

    /// The header names of the key columns.
    public static let header = ["scenario", "arm", "replication", "product"]

    /// The key fields of a row.
    public var fields: [CSVField] {
        [.text(scenario), .text(arm), replication.map { .integer(Int64($0)) } ?? .text("all"), .text(product)]
    }
}
