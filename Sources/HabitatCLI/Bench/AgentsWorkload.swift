import RulesCore
import Reports
import SimKernel
import Simulation
import Stochastics

/// The many-agents kernel benchmark (`habitat bench kernel --workload agents`), the semantics of
/// `Benchmarks/peer_c.c`: each agent has a Poisson stream of urges at 40 a day, an hourly earn timer that every
/// urge cancels and re-arms, and a local-midnight rollover each day; each urge is resisted with probability 0.3.
///
/// Unlike the C reference's single global heap, each agent lives through its own small `EventQueue` (the
/// design of the simulator), and agents run person-parallel across threads with totals identical for any
/// thread count.
struct AgentsWorkload {
    var agents: Int
    var days: Int
    var seed: UInt64
    var threads: Int

    static let urgesPerDay = 40.0
    static let earnEvery = TimeSpan.hours(1)
    static let resistProbability = 0.3

    enum Event { case urge, earn, midnight }

    /// Integer totals over all agents; merging is exact, so any thread count gives the same numbers.
    struct Totals: Mergeable, Sendable, Equatable {
        var urges = 0, resists = 0, gives = 0, earns = 0, rollovers = 0, stale = 0, heapPeak = 0
        var dailySumOfSquares: UInt64 = 0
        var events: Int { urges + earns + rollovers }
        mutating func merge(_ o: Totals) {
            urges += o.urges; resists += o.resists; gives += o.gives; earns += o.earns
            rollovers += o.rollovers; stale += o.stale; heapPeak = max(heapPeak, o.heapPeak)
            dailySumOfSquares &+= o.dailySumOfSquares
        }
    }

    func run(progress: (@Sendable (Int) -> Void)? = nil) throws -> Totals {
        let horizon = Instant.epoch + .days(Int64(days))
        let seed = self.seed
        let meanGap = 86_400_000.0 / AgentsWorkload.urgesPerDay
        let zone = ZoneCalendar.utc
        return try PersonParallelRunner(threads: threads, blockSize: 256).run(
            people: agents,
            makeAccumulator: { Totals() },
            progress: progress
        ) { agent, totals in
            let urges = RandomStream(key: StreamKey(seed: seed, replication: 0, person: UInt64(agent), stream: "urges"))
            let choices = RandomStream(key: StreamKey(seed: seed, replication: 0, person: UInt64(agent), stream: "choices"))
            var queue = EventQueue<Event>(start: .epoch, timerSlots: 1, capacity: 8)
            let earnSlot = 0
            var urgesToday: UInt64 = 0
            func gap() -> TimeSpan { TimeSpan(milliseconds: Int64(urges.exponential(mean: meanGap).rounded())) }

            let first = Instant.epoch + gap()
            if first <= horizon { queue.schedule(.urge, at: first) }
            if Instant.epoch + AgentsWorkload.earnEvery <= horizon { queue.arm(slot: earnSlot, .earn, at: .epoch + AgentsWorkload.earnEvery) }
            let midnight = zone.startOfNextDay(after: .epoch)
            if midnight <= horizon { queue.schedule(.midnight, at: midnight) }

            queue.run(until: horizon) { q, e in
                switch e.payload {
                case .urge:
                    totals.urges += 1
                    urgesToday += 1
                    if choices.uniform() < AgentsWorkload.resistProbability { totals.resists += 1 } else { totals.gives += 1 }
                    let earnAt = e.time + AgentsWorkload.earnEvery
                    if earnAt <= horizon { q.arm(slot: earnSlot, .earn, at: earnAt) } else { q.disarm(slot: earnSlot) }
                    let next = e.time + gap()
                    if next <= horizon { q.schedule(.urge, at: next) }
                case .earn:
                    totals.earns += 1
                    let next = e.time + AgentsWorkload.earnEvery
                    if next <= horizon { q.arm(slot: earnSlot, .earn, at: next) }
                case .midnight:
                    totals.rollovers += 1
                    totals.dailySumOfSquares &+= urgesToday * urgesToday
                    urgesToday = 0
                    let next = zone.startOfNextDay(after: e.time)
                    if next <= horizon { q.schedule(.midnight, at: next) }
                }
            }
            totals.stale += queue.staleCount
            totals.heapPeak = max(totals.heapPeak, queue.peakSize)
        }
    }
}
