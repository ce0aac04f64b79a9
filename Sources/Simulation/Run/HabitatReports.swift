import Reports
import RulesCore

/// Habitat's own report files (CONTRACT.md), each a writer like a product's (issue 42), in the order they are
/// written, with the products they are written for.
enum HabitatReports<Adapter: ProductAdapter> {
    /// The writers a run of `Adapter` writes before the product's own: every run's product-neutral ones
    /// (`kpis.csv`, `learning.csv`; all a run of `none` writes besides `world-check.csv`), the ones that need an app,
    /// and `revenue.csv` only for a product with money — one that sells something or pays for serving its people
    /// (`RevenueModel.hasMoney`; a free product writes no money files).
    static var writers: [ReportWriter<Adapter>] {
        let d = Adapter.Engine.descriptor
        let app = Adapter.hasApp, money = app && d.revenue.hasMoney
        var out: [ReportWriter<Adapter>] = []
        if app {
            out.append(ReportWriter("activation-funnel.csv", header: FunnelAccumulator.header) { $0.run.funnel.rows($1, stages: d.funnel) })
            out.append(ReportWriter("retention.csv", header: RetentionAccumulator.header) { $0.run.retention.rows($1) })
            out.append(ReportWriter("battery-budget.csv", header: BatteryBudgetAccumulator.header) { $0.run.battery.rows($1) })
        }
        out.append(ReportWriter("kpis.csv", header: KPITable.header, pooling: .always) { input, keys in
            input.pooled ? ArmKPIs.table(input.kpiValues).rows(keys, horizonDays: input.horizonDays)
                : KPITable.replicationRows(input.kpiValues[0], keys, horizonDays: input.horizonDays)
        })
        if money { out.append(ReportWriter("revenue.csv", header: RevenueAccumulator.header) { $0.run.revenue.rows($1) }) }
        if app {
            out.append(ReportWriter("energy-by-effect.csv", header: BatteryBudgetAccumulator.energyHeader, pooling: .never) { $0.run.battery.energyRows($1) })
            out.append(ReportWriter("decisions.csv", header: DecisionCounts.header) { $0.run.decisions.rows($1, kinds: Adapter.decisionKinds) })
        }
        out.append(ReportWriter("learning.csv", header: LearningAccumulator.header) { $0.run.learning.rows($1) })
        return out
    }
}

extension RevenueModel {
    /// The product has money to report: it sells something or pays for serving its people. One with neither
    /// (`RevenueModel.free`: `none`, Lazuri) writes no `revenue.csv` and no `forecast.csv` (issue 42).
    public var hasMoney: Bool { sellsAnything || incursCosts }
}
