import Foundation
import Reports
import ScenarioFormat

extension ShardStateHeader {
    /// The header of a shard of `scenario` whose arms are of `product` (one product's id, or several joined with
    /// `+` for a run whose arms are different products).
    init(scenario: ResolvedScenario, product: String, shard: ShardSpec) {
        self.init(product: product, scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                  shard: shard, replications: scenario.replications,
                  arms: scenario.arms.map {
                      let p = shard.people(of: $0.population.installs)
                      return .init(name: $0.name, installs: $0.population.installs, from: p.lowerBound, to: p.upperBound)
                  })
    }
}

extension ShardSpec {
    /// People this shard simulates in all of `scenario` (every arm × replication), for its progress bar.
    func peopleInAll(of scenario: ResolvedScenario) -> Int {
        scenario.arms.reduce(0) { $0 + people(of: $1.population.installs).count } * scenario.replications
    }
}

extension ShardSet {
    /// Refuses a shard whose header does not describe the run `expected` describes (its product, replications, arms and
    /// their sizes): shards of another scenario than the one in their manifests.
    func requireHeaders(like expected: ShardStateHeader, scenarioName: String) throws {
        for f in folders {
            guard f.header.product == expected.product, f.header.replications == expected.replications,
                  f.header.arms.map(\.name) == expected.arms.map(\.name), f.header.arms.map(\.installs) == expected.arms.map(\.installs) else {
                throw ShardRefused(path: f.path, reason: "its header does not describe the scenario in its manifest (\(scenarioName))")
            }
        }
    }
}

extension ProductRun {
    /// Folds every shard's records, replication by replication and arm by arm in scenario order (the order
    /// `simulateShard` wrote them), into the state a whole run reaches; refuses records beyond the last. A stop
    /// (`StopRequest`) is honoured before every arm × replication and, in `mergeArm`, before every shard's record.
    mutating func foldShards(_ shards: ShardSet, progress: (@Sendable (Int) -> Void)?) throws {
        prepareMerge(shards)
        var folded = 0
        for r in 1...scenario.replications {
            for i in scenario.arms.indices {
                try StopRequest.checkpoint()
                try mergeArm(i, recordArm: i, replication: r, shards: shards)
                folded += 1
                progress?(folded)
            }
        }
        for f in shards.folders { try f.expectEnd() }
    }
}

extension ProductRun {
    /// Writes a shard's state through `emit`: `header` first, then one record per replication and arm in scenario
    /// order (`shardRecord`); returns the shard's totals.
    func emitShard(_ shard: ShardSpec, header: ShardStateHeader, emit: (Data) throws -> Void,
                   progress: (@Sendable (Int) -> Void)?) throws -> (people: Int, personDays: Int, events: Int) {
        precondition(scenario.precision == nil, "a precision target cannot be sharded")
        try emit(try JSONEncoder().encode(header))
        var done = 0, totals = (people: 0, personDays: 0, events: 0)
        for r in 1...scenario.replications {
            for i in scenario.arms.indices {
                let (line, t) = try shardRecord(arm: i, recordArm: i, replication: r, shard: shard, done: &done, progress: progress)
                totals = (totals.people + t.people, totals.personDays + t.personDays, totals.events + t.events)
                try emit(line)
            }
        }
        return totals
    }
}
