import RulesCore

/// One input a sweep sends to an engine: what, and at which instant.
public struct SweepInput<Input> {
    /// The input.
    public var input: Input
    /// When it is sent.
    public var at: Instant

    /// `input` sent at `at`.
    public init(_ input: Input, at: Instant) {
        self.input = input
        self.at = at
    }
}

/// How a sweep's engine starts for one seed: the arguments of `RuleEngine.init(parameters:zone:installedAt:)` and a
/// fixed prelude of inputs (e.g. an onboarding) sent before the random ones.
public struct SweepStart<Engine: RuleEngine> {
    /// The engine's rule parameters.
    public var parameters: Engine.Parameters
    /// The person's local calendar.
    public var zone: ZoneCalendar
    /// The install instant (the sweep's clock starts here).
    public var installedAt: Instant
    /// Inputs sent first, in order (instants not before `installedAt`, never decreasing). They are part of the
    /// sequence a failure shrinks, so a minimal sequence shows whether they matter.
    public var prelude: [SweepInput<Engine.Input>]

    /// A start with the given engine arguments and prelude.
    public init(parameters: Engine.Parameters, zone: ZoneCalendar, installedAt: Instant, prelude: [SweepInput<Engine.Input>] = []) {
        self.parameters = parameters
        self.zone = zone
        self.installedAt = installedAt
        self.prelude = prelude
    }
}

/// What a property sees of one engine call during a sweep (random inputs, prelude and timer deliveries alike).
public struct SweepStep<Engine: RuleEngine> {
    /// The engine before the call.
    public let before: Engine
    /// The input.
    public let input: Engine.Input
    /// The instant of the call.
    public let at: Instant
    /// What the call produced.
    public let outcome: Engine.Outcome
    /// The engine after the call.
    public let after: Engine
    /// Whether the host delivered this input because a timer the engine armed fell due.
    public let isTimerDelivery: Bool
}

/// A failing sweep, shrunk: the seed, the minimal input sequence that still fails, and what failed.
public struct SweepFailure<Engine: RuleEngine>: CustomStringConvertible {
    /// The seed whose random sequence failed.
    public let seed: UInt64
    /// The engine's start for the seed (replay the minimal sequence with `EngineSweep.replay(_:_:end:trace:)`).
    public let start: SweepStart<Engine>
    /// How many inputs the random sequence had sent when it failed (prelude included).
    public let originalCount: Int
    /// The shrunk sequence: removing any one input (or any chunk the shrinker tried) makes the failure go away.
    public let minimal: [SweepInput<Engine.Input>]
    /// The replay runs timers up to this instant after the last input (the failure may be a timer delivery).
    public let end: Instant
    /// The problems the minimal sequence shows, each naming its instant and input.
    public let problems: [String]
    /// The minimal replay call by call, timer deliveries included: `instant input → decision`.
    public let trace: [String]
    /// How many replays shrinking took.
    public let replays: Int

    /// A readable report: seed, sizes, the minimal sequence as replayed, and the problems.
    public var description: String {
        var s = "\(Engine.self) sweep failed for seed \(seed): \(originalCount) inputs shrunk to \(minimal.count) (\(replays) replays)."
        s += "\nMinimal sequence as replayed from a fresh engine (· = a timer the host delivered), timers run until \(end):"
        for line in trace { s += "\n  " + line }
        s += "\nProblems:"
        for p in problems { s += "\n  - " + p }
        return s
    }
}

/// The result of sweeping one seed.
public struct SweepRun<Engine: RuleEngine> {
    /// The seed.
    public let seed: UInt64
    /// Every input the random sequence sent (prelude included), up to the failing one when it failed.
    public let inputs: [SweepInput<Engine.Input>]
    /// Every analytics event the engine emitted, with its instant (for coverage checks).
    public let events: [(at: Instant, event: Engine.Event)]
    /// The shrunk failure, or nil when every check held.
    public let failure: SweepFailure<Engine>?
}

/// A property sweep for any `RuleEngine`: per seed, a fresh engine is driven through `steps` random inputs drawn by
/// the caller's `randomInput` (which sees the engine, so it can draw sensible inputs), with every timer the engine
/// arms delivered back at its due instant (one pending timer per kind; re-arming supersedes). After every call the
/// sweep checks
///
/// - the engine's own `invariantViolations(at:)`;
/// - that instants never go backwards (a random instant before the clock is a problem too);
/// - that every timer returned is strictly in the future of the call that armed it;
/// - the caller's extra `properties`, if any.
///
/// The first failure stops the seed, and the input sequence is shrunk delta-debugging style: chunks, then single
/// inputs, are dropped while a replay from a fresh engine still fails (any problem counts), until no single input can
/// be removed. The result names the seed, the minimal sequence and its problems (`SweepFailure.description`).
///
/// A new engine gets invariant sweeps by writing only `randomInput`:
///
/// ```swift
/// let sweep = EngineSweep<MyEngine>(start: SweepStart(parameters: .defaults, zone: .utc, installedAt: t0),
///                                   steps: 300) { random, engine, now in
///     random.chance(0.5) ? .open : .close
/// }
/// for seed in 1...50 { expectNoFailure(sweep.run(seed: seed)) }
/// ```
public struct EngineSweep<Engine: RuleEngine> {
    /// The generator for a seed (default `SplitMix64(seed:)`); the same seed always draws the same sequence.
    public var generator: (UInt64) -> SplitMix64
    /// The engine's start for a seed; may draw from the seed's generator (e.g. a random install hour).
    public var start: (UInt64, inout SplitMix64) -> SweepStart<Engine>
    /// Random inputs per seed (after the prelude).
    public var steps: Int
    /// The instant of the next random input, given the engine and the clock (must not be before the clock).
    public var nextInstant: (inout SplitMix64, Engine, Instant) -> Instant
    /// A random input at an instant, given the engine as it stands then (timers due by then already delivered).
    public var randomInput: (inout SplitMix64, Engine, Instant) -> Engine.Input
    /// After the last input, timers keep being delivered for this long (default none).
    public var drain: TimeSpan
    /// Makes a fresh checker of extra properties for one run (each replay gets its own, so checkers may keep
    /// state across steps, e.g. totals per day); a checker returns the problems of a step, empty when all hold.
    public var properties: () -> (SweepStep<Engine>) -> [String]
    /// Shrinking stops after this many replays (the sequence found by then is reported).
    public var maxReplays: Int

    /// A sweep whose engine start may depend on the seed.
    /// - Parameters:
    ///   - generator: the random generator for a seed.
    ///   - start: the engine's parameters, zone, install instant and prelude for a seed.
    ///   - steps: random inputs per seed.
    ///   - nextInstant: the next input's instant (default: 0 to 10 minutes after the clock).
    ///   - drain: how long timers keep running after the last input.
    ///   - properties: a factory of extra checks (default none).
    ///   - maxReplays: the shrinking budget.
    ///   - randomInput: a random input for the engine as it stands at an instant.
    public init(generator: @escaping (UInt64) -> SplitMix64 = { SplitMix64(seed: $0) },
                start: @escaping (UInt64, inout SplitMix64) -> SweepStart<Engine>,
                steps: Int,
                nextInstant: @escaping (inout SplitMix64, Engine, Instant) -> Instant = { r, _, now in now + .seconds(Int64(r.below(600))) },
                drain: TimeSpan = .zero,
                properties: @escaping () -> (SweepStep<Engine>) -> [String] = { { _ in [] } },
                maxReplays: Int = 5_000,
                randomInput: @escaping (inout SplitMix64, Engine, Instant) -> Engine.Input) {
        self.generator = generator
        self.start = start
        self.steps = steps
        self.nextInstant = nextInstant
        self.drain = drain
        self.properties = properties
        self.maxReplays = maxReplays
        self.randomInput = randomInput
    }

    /// A sweep whose engine starts the same way for every seed.
    public init(start: SweepStart<Engine>, steps: Int,
                nextInstant: @escaping (inout SplitMix64, Engine, Instant) -> Instant = { r, _, now in now + .seconds(Int64(r.below(600))) },
                drain: TimeSpan = .zero,
                properties: @escaping () -> (SweepStep<Engine>) -> [String] = { { _ in [] } },
                randomInput: @escaping (inout SplitMix64, Engine, Instant) -> Engine.Input) {
        self.init(start: { _, _ in start }, steps: steps, nextInstant: nextInstant, drain: drain, properties: properties,
                  randomInput: randomInput)
    }

    /// Sweeps one seed: draws and checks its random sequence, and shrinks it if it fails.
    public func run(seed: UInt64) -> SweepRun<Engine> {
        var random = generator(seed)
        let start = self.start(seed, &random)
        var host = SweepHost<Engine>(start, check: properties(), recordEvents: true)
        var sent: [SweepInput<Engine.Input>] = []
        var failure: (count: Int, at: Instant)?
        for input in start.prelude where failure == nil {
            if host.advance(to: input.at) { failure = (sent.count, host.failedAt!); break }
            sent.append(input)
            if host.send(input.input, at: input.at) { failure = (sent.count, host.failedAt!) }
        }
        var step = 0
        while failure == nil && step < steps {
            step += 1
            let t = nextInstant(&random, host.engine, host.now)
            if host.advance(to: t) { failure = (sent.count, host.failedAt!); break }
            let input = randomInput(&random, host.engine, t)
            sent.append(SweepInput(input, at: t))
            if host.send(input, at: t) { failure = (sent.count, host.failedAt!) }
        }
        var end = host.now + drain
        if failure == nil, host.advance(to: end) { failure = (sent.count, host.failedAt!) }
        guard let failure else { return SweepRun(seed: seed, inputs: sent, events: host.events, failure: nil) }
        end = failure.at
        return SweepRun(seed: seed, inputs: sent, events: host.events,
                        failure: shrink(seed: seed, start: start, Array(sent.prefix(failure.count)), end: end))
    }

    /// Replays `inputs` from a fresh engine, then delivers timers until `end`; the problems of the first failing
    /// call (empty when none failed), the number of inputs sent by then, and the instant of the failure.
    public func replay(_ start: SweepStart<Engine>, _ inputs: [SweepInput<Engine.Input>], end: Instant,
                       trace: Bool = false) -> (problems: [String], sent: Int, at: Instant?, trace: [String]) {
        var host = SweepHost<Engine>(start, check: properties(), recordEvents: false)
        host.trace = trace ? [] : nil
        var sent = 0
        for input in inputs {
            if host.advance(to: input.at) { return (host.problems, sent, host.failedAt, host.trace ?? []) }
            sent += 1
            if host.send(input.input, at: input.at) { return (host.problems, sent, host.failedAt, host.trace ?? []) }
        }
        _ = host.advance(to: end)
        return (host.problems, sent, host.failedAt, host.trace ?? [])
    }

    /// Delta-debugging shrink: drop chunks of halving size, then single inputs, while a replay still fails; each
    /// failing candidate is cut back to the inputs sent when it failed.
    func shrink(seed: UInt64, start: SweepStart<Engine>, _ failing: [SweepInput<Engine.Input>], end failingEnd: Instant) -> SweepFailure<Engine> {
        var seq = failing
        var end = failingEnd
        var replays = 0
        var chunk = max(1, seq.count / 2)
        shrinking: while true {
            var removedAny = false
            var i = 0
            while i < seq.count {
                if replays >= maxReplays { break shrinking }
                var candidate = seq
                candidate.removeSubrange(i..<min(i + chunk, seq.count))
                replays += 1
                let r = replay(start, candidate, end: end)
                if !r.problems.isEmpty, let at = r.at {
                    seq = Array(candidate.prefix(r.sent))
                    end = at
                    removedAny = true
                } else {
                    i += chunk
                }
            }
            if chunk == 1 && !removedAny { break }
            chunk = max(1, chunk / 2)
        }
        let final = replay(start, seq, end: end, trace: true)
        return SweepFailure(seed: seed, start: start, originalCount: failing.count, minimal: seq, end: end, problems: final.problems,
                            trace: final.trace, replays: replays)
    }
}

/// Sweeps `engine` over every seed of `seeds` in one call and returns the failures, shrunk, in seed order (empty
/// when every check held on every seed): the shortest way to give a new engine invariant sweeps.
///
/// ```swift
/// #expect(sweep(engine: MyEngine.self, seeds: 1...100, steps: 300, start: start) { r, engine, now in … }.isEmpty)
/// ```
/// For one test case per seed (a failing seed shows by name), build an `EngineSweep` and call `run(seed:)`.
/// - Parameters:
///   - engine: the engine type.
///   - seeds: the seeds; each draws its own replayable sequence.
///   - steps: random inputs per seed.
///   - start: the engine's parameters, zone, install instant and prelude (the same for every seed).
///   - nextInstant: the next input's instant (default: 0 to 10 minutes after the clock).
///   - drain: how long timers keep running after the last input.
///   - properties: a factory of extra checks, fresh per run (default none).
///   - randomInput: a random input for the engine as it stands at an instant.
public func sweep<Engine: RuleEngine, Seeds: Sequence<UInt64>>(
    engine: Engine.Type, seeds: Seeds, steps: Int, start: SweepStart<Engine>,
    nextInstant: @escaping (inout SplitMix64, Engine, Instant) -> Instant = { r, _, now in now + .seconds(Int64(r.below(600))) },
    drain: TimeSpan = .zero,
    properties: @escaping () -> (SweepStep<Engine>) -> [String] = { { _ in [] } },
    randomInput: @escaping (inout SplitMix64, Engine, Instant) -> Engine.Input
) -> [SweepFailure<Engine>] {
    let driver = EngineSweep(start: start, steps: steps, nextInstant: nextInstant, drain: drain, properties: properties, randomInput: randomInput)
    return seeds.compactMap { driver.run(seed: $0).failure }
}

/// The sweep's host: the engine, the clock, the pending timers (one per kind) and the checks after every call.
struct SweepHost<Engine: RuleEngine> {
    var engine: Engine
    var now: Instant
    var pending: [Engine.Outcome.Timer] = []
    var out = Engine.Outcome()
    let check: (SweepStep<Engine>) -> [String]
    let recordEvents: Bool
    var events: [(at: Instant, event: Engine.Event)] = []
    var problems: [String] = []
    var failedAt: Instant?
    var trace: [String]?

    init(_ start: SweepStart<Engine>, check: @escaping (SweepStep<Engine>) -> [String], recordEvents: Bool) {
        engine = Engine(parameters: start.parameters, zone: start.zone, installedAt: start.installedAt)
        now = start.installedAt
        self.check = check
        self.recordEvents = recordEvents
    }

    /// Delivers every timer due at or before `t`, in time order (ties: the earlier armed first), then moves the
    /// clock to `t`. True when a call failed.
    mutating func advance(to t: Instant) -> Bool {
        while let i = pending.indices.min(by: { pending[$0].at < pending[$1].at }), pending[i].at <= t {
            let timer = pending.remove(at: i)
            if dispatch(Engine.timerInput(timer), at: timer.at, isTimer: true) { return true }
        }
        if t > now { now = t }
        return false
    }

    /// Delivers due timers, then sends `input` at `t`. True when a call failed.
    mutating func send(_ input: Engine.Input, at t: Instant) -> Bool {
        if t < now {
            problems = ["\(t) \(input): sent at \(t), before the clock's \(now) (instants went backwards)"]
            failedAt = now
            return true
        }
        if advance(to: t) { return true }
        return dispatch(input, at: t, isTimer: false)
    }

    mutating func dispatch(_ input: Engine.Input, at t: Instant, isTimer: Bool) -> Bool {
        now = max(now, t)
        let before = engine
        engine.handle(input, at: t, into: &out)
        var found: [String] = []
        for timer in out.timers {
            if timer.at <= t { found.append("timer \(timer.kind) due \(timer.at) is not after the call at \(t)") }
            pending.removeAll { $0.kind == timer.kind }
            pending.append(timer)
        }
        if recordEvents { for e in out.events { events.append((t, e)) } }
        trace?.append("\(isTimer ? "· " : "")\(t)  \(input) → \(out.decision)")
        found += engine.invariantViolations(at: t)
        found += check(SweepStep(before: before, input: input, at: t, outcome: out, after: engine, isTimerDelivery: isTimer))
        guard !found.isEmpty else { return false }
        problems = found.map { "\(t) \(input): \($0)" }
        failedAt = t
        return true
    }
}
