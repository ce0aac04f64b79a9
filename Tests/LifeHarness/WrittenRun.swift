import Behavior
import Foundation
import Reports
import ScenarioFormat
import Simulation

/// A registered product's run written as `habitat run` writes it (smaller): the report folder's CSV files by name, as
/// text — for the life tests' end-to-end checks of a product's report files, decision audit and money files.
public enum WrittenRun {
    /// Runs `scenario` with `product` on 2 threads (`processes`: the person processes besides the standard ones; nil,
    /// the product's own) and writes its report under `root`.
    public static func csvFiles(of product: RegisteredProduct, _ scenario: ResolvedScenario, into root: URL,
                                processes: [any PersonProcess.Type]? = nil) throws -> [String: String] {
        try csvFiles(of: product.run(scenario, threads: 2, processes: processes), into: root)
    }

    /// `run` simulated and written into `root`/run: every CSV it wrote, by file name, as text (a run of one product,
    /// or `Products.run`'s of a scenario whose arms are different products).
    public static func csvFiles(of run: any ProductRun, into root: URL) throws -> [String: String] {
        var run = run
        try run.simulate(progress: nil)
        let report = try ReportDirectory(destination: root.appendingPathComponent("run"))
        let files = try run.write(to: report, wallSeconds: 0, checkpoint: {}, extra: { _ in })
        try report.commit()
        var texts: [String: String] = [:]
        for f in files where f.hasSuffix(".csv") {
            texts[f] = try String(contentsOf: report.destination.appendingPathComponent(f), encoding: .utf8)
        }
        return texts
    }

    /// A written CSV's rows, split on CRLF and commas (the reports quote no field these tests read).
    public static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }
}
