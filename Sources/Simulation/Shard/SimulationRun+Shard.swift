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
        let line = try ShardRecord<RunAccumulator<Adapter>>.line(shard: shard, arm: recordArm, armName: arm.name, replication: r, people: people,
                                                                  accumulator: try JSONEncoder().encode(acc))
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
    /// `r` — checks it (`checkedRecord`), folds the shards' accumulators in shard order into arm `i`'s replication `r`.
    public mutating func mergeArm(_ i: Int, recordArm: Int, replication r: Int, shards: ShardSet) throws {
        let arm = scenario.arms[i]
        let decoder = JSONDecoder()
        decoder.userInfo[BatteryBudgetAccumulator.budgetsUserInfoKey] = Adapter.Engine.descriptor.batteryBudgets
        var acc = RunAccumulator<Adapter>(horizonDays: scenario.horizonDays)
        for f in shards.folders {
            try StopRequest.checkpoint()   // a record takes milliseconds to read: a stop is honoured between them
            acc.merge(try checkedRecord(f, arm: arm, recordArm: recordArm, replication: r, decoder: decoder))
        }
        guard acc.people == arm.population.installs else {
            throw ShardRefused(path: shards.folders.map(\.path).joined(separator: " "),
                               reason: "arm '\(arm.name)', replication \(r): the shards hold \(acc.people) people, the arm \(arm.population.installs)")
        }
        try fold(acc, arm: i, replication: r)
    }
}

extension SimulationRun {
    /// The next record of shard folder `f`, refused (`ShardRefused`, naming the folder, the record and what is wrong)
    /// unless its seal holds, it reads, its identity is the one expected at this place — shard, arm index and name,
    /// replication, people and their ids — and every figure of its accumulator is one its people could have produced
    /// (`RunAccumulator.validate`, whose bounds also keep every later sum within 64 bits).
    func checkedRecord(_ f: ShardFolder, arm: ResolvedArm, recordArm: Int, replication r: Int,
                       decoder: JSONDecoder) throws -> RunAccumulator<Adapter> {
        let line = try f.nextRecord()
        let n = f.records.lineNumber - 1
        func refuse(_ reason: String) -> ShardRefused {
            ShardRefused(path: f.path, reason: "record \(n) (arm '\(arm.name.echoed())', replication \(r)) of \(ShardState.fileName): \(reason)")
        }
        guard ShardRecord<RunAccumulator<Adapter>>.sealHolds(line) else {
            throw refuse("it fails its seal (the file was changed or damaged after habitat wrote it); re-run shard \(f.header.shard)")
        }
        let record: ShardRecord<RunAccumulator<Adapter>>
        do { record = try decoder.decode(ShardRecord<RunAccumulator<Adapter>>.self, from: line) } catch {
            throw refuse("it cannot be read (\(plainDescription(of: error)))")
        }
        let block = f.header.shard.people(of: arm.population.installs)
        guard record.shard == f.header.shard.description else {
            throw refuse("it is a record of shard \(record.shard.echoed()), not of this shard \(f.header.shard) (moved between shard folders)")
        }
        guard record.arm == recordArm, record.armName == arm.name, record.replication == r else {
            throw refuse("it is labelled arm \(record.arm + 1) ('\(record.armName.echoed())'), replication \(record.replication); "
                         + "expected arm \(recordArm + 1) ('\(arm.name.echoed())'), replication \(r) here (records moved or swapped)")
        }
        guard record.people == block.count, record.from == block.lowerBound, record.to == block.upperBound else {
            throw refuse("it holds \(record.people) people, ids \(record.from)..<\(record.to); shard \(f.header.shard) of "
                         + "\(arm.population.installs) is \(block.count) people, ids \(block.lowerBound)..<\(block.upperBound)")
        }
        let bounds = AccumulatorBounds(people: block.count, armPeople: arm.population.installs, replications: scenario.replications,
                                       horizonDays: scenario.horizonDays)
        do { try record.accumulator.validate(bounds) } catch { throw refuse("accumulator.\(error)") }
        return record.accumulator
    }
}
