import Foundation
import Reports
import RulesCore
import ScenarioFormat

/// A run split across processes or machines (`habitat run --shard K/N`, `habitat merge`, `habitat-ray`).
///
/// A shard simulates, for every replication and arm, only its block of person ids (`ShardSpec.people(of:)`) and
/// writes each arm × replication's accumulator to `shard-state.jsonl` (`ShardState`). `merge` reads the N shards'
/// records side by side, folds each arm × replication's N accumulators in shard order into the accumulator a whole
/// run would have built — bit for bit, since every accumulator merges exactly — and from there runs the very code a
/// whole run runs (`fold`, `write`), so the reports are the same bytes.
extension SimulationRun {
    /// Simulates shard `shard` of every arm × replication, handing each finished record (one JSON line, no newline)
    /// to `emit` in the order `ShardState` describes; returns the header written first and the totals.
    ///
    /// A precision target (replications added until a half-width is met) needs every person's results after
    /// each replication, so it cannot be sharded: `precondition` — the command refuses it first.
    public func simulateShard(_ shard: ShardSpec, emit: (Data) throws -> Void,
                              progress: (@Sendable (Int) -> Void)? = nil) throws -> (people: Int, personDays: Int, events: Int) {
        try emitShard(shard, header: shardHeader(shard), emit: emit, progress: progress)
    }

    /// The shard's people of arm `i` in replication `r`, simulated into one record line labelled arm `recordArm` (the
    /// arm's place in the whole scenario: a run of several products numbers its arms across products).
    public func shardRecord(arm i: Int, recordArm: Int, replication r: Int, shard: ShardSpec, done: inout Int,
                            progress: (@Sendable (Int) -> Void)?) throws -> (line: Data, totals: (people: Int, personDays: Int, events: Int)) {
        let arm = scenario.arms[i]
        let people = shard.people(of: arm.population.installs)
        let acc = try simulate(arm, replication: r, people: people, done: &done, progress: progress)
        let line = ShardRecord<RunAccumulator<Adapter>>.line(arm: recordArm, replication: r, people: people.count, accumulator: try JSONEncoder().encode(acc))
        return (line, (acc.people, acc.personDays, acc.events))
    }

    /// People a shard simulates in all (every arm × replication), for its progress bar.
    public func shardPeople(_ shard: ShardSpec) -> Int { shard.peopleInAll(of: scenario) }

    /// The header of a shard's state file.
    func shardHeader(_ shard: ShardSpec) -> ShardStateHeader {
        ShardStateHeader(scenario: scenario, product: scenario.product.rawValue, shard: shard)
    }

    /// Folds the shards of this run's scenario into the state a whole run reaches after `simulate()`, ready for
    /// `write`. `progress` receives the arm × replication records folded so far. The scenario is the shards' own
    /// (`ShardSet.manifest`), with `outputs.dir` set to the merge's destination as `run --out` would set it; shards
    /// are run without `--out` in the scenario, so their hash names the simulation only.
    public mutating func merge(_ shards: ShardSet, progress: (@Sendable (Int) -> Void)? = nil) throws {
        try shards.requireHeaders(like: shardHeader(ShardSpec(index: 1, count: shards.count)!), scenarioName: scenario.name)
        try foldShards(shards, progress: progress)
    }

    /// Empties the run before shards are folded in (`mergeArm`).
    public mutating func prepareMerge(_ shards: ShardSet) {
        resetArms()
        mergedShards = shards.count
    }

    /// Reads the next record of every shard — arm `recordArm` (the arm's place in the whole scenario), replication
    /// `r` — checks it, folds the shards' accumulators in shard order into arm `i`'s replication `r`.
    public mutating func mergeArm(_ i: Int, recordArm: Int, replication r: Int, shards: ShardSet) throws {
        let arm = scenario.arms[i]
        let decoder = JSONDecoder()
        decoder.userInfo[BatteryBudgetAccumulator.budgetsUserInfoKey] = Adapter.Engine.descriptor.batteryBudgets
        var acc = RunAccumulator<Adapter>(horizonDays: scenario.horizonDays)
        for f in shards.folders {
            try StopRequest.checkpoint()   // a record takes milliseconds to read: a stop is honoured between them
            let line = try f.nextRecord()
            let record: ShardRecord<RunAccumulator<Adapter>>
            do { record = try decoder.decode(ShardRecord<RunAccumulator<Adapter>>.self, from: line) } catch {
                throw ShardRefused(path: f.path, reason: "record \(f.records.lineNumber - 1) of \(ShardState.fileName) cannot be read (\(plainDescription(of: error)))")
            }
            guard record.checksumMatches(line) else {
                throw ShardRefused(path: f.path, reason: "record \(f.records.lineNumber - 1) of \(ShardState.fileName) fails its checksum "
                                   + "(the file was changed or damaged after habitat wrote it); re-run shard \(f.header.shard)")
            }
            let block = f.header.shard.people(of: arm.population.installs)
            guard record.arm == recordArm, record.replication == r else {
                throw ShardRefused(path: f.path, reason: "record \(f.records.lineNumber - 1) is arm \(record.arm + 1), replication \(record.replication); "
                                   + "expected arm \(recordArm + 1) ('\(arm.name)'), replication \(r)")
            }
            guard record.people == block.count, record.accumulator.people == block.count else {
                throw ShardRefused(path: f.path, reason: "arm '\(arm.name)', replication \(r): the record says \(record.people) people and "
                                   + "its accumulator holds \(record.accumulator.people); shard \(f.header.shard) of \(arm.population.installs) is \(block.count)")
            }
            acc.merge(record.accumulator)
        }
        guard acc.people == arm.population.installs else {
            throw ShardRefused(path: shards.folders.map(\.path).joined(separator: " "),
                               reason: "arm '\(arm.name)', replication \(r): the shards hold \(acc.people) people, the arm \(arm.population.installs)")
        }
        try fold(acc, arm: i, replication: r)
    }
}
