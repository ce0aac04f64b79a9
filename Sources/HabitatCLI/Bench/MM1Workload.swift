import RulesCore
import SimKernel
import Stochastics

/// The M/M/1 kernel benchmark (`habitat bench kernel --workload mm1`): one server, Poisson arrivals at
/// λ = 0.9 and exponential service at μ = 1.0, until `customers` have departed — the same model as
/// `Benchmarks/peer_c.c` and `Benchmarks/peer_simpy.py`.
///
/// Time runs on the kernel's integer clock with one model time unit = 1 000 000 ms, so rounding is 10⁻⁶ of a
/// mean service time. Arrival and service draws come from two keyed streams.
struct MM1Workload {
    static let lambda = 0.9
    static let mu = 1.0
    /// Analytic mean wait in queue, ρ/(μ−λ) = 9.0.
    static let analyticWq = (lambda / mu) / (mu - lambda)
    /// Analytic mean time in system, 1/(μ−λ) = 10.0.
    static let analyticW = 1 / (mu - lambda)
    static let unitMs: Double = 1_000_000

    var customers: Int
    var seed: UInt64
    /// Customers discarded before batch means start (the queue starts empty).
    var warmup: Int
    var batches: Int

    init(customers: Int, seed: UInt64, warmup: Int? = nil, batches: Int = 20) {
        self.customers = customers
        self.seed = seed
        self.warmup = warmup ?? customers / 20
        self.batches = batches
    }

    enum Event { case arrival, departure }

    struct Result {
        var events: Int
        var departures: Int
        var meanWq: Double
        var meanW: Double
        /// Batch means of Wq after warm-up.
        var wqBatches: OnlineBatchMeans
        var heapPeak: Int
        var queuePeak: Int
    }

    func run() -> Result {
        let arrivals = RandomStream(key: StreamKey(seed: seed, replication: 0, person: 0, stream: "arrivals"))
        let services = RandomStream(key: StreamKey(seed: seed, replication: 0, person: 0, stream: "services"))
        let arrivalMean = MM1Workload.unitMs / MM1Workload.lambda
        let serviceMean = MM1Workload.unitMs / MM1Workload.mu
        @inline(__always) func draw(_ s: RandomStream, _ mean: Double) -> TimeSpan {
            TimeSpan(milliseconds: roundedMilliseconds(s.exponential(mean: mean)))
        }

        var queue = EventQueue<Event>(capacity: 4)
        var waiting = RingBuffer(capacity: 1 << 12)
        var busy = false
        var inServiceArrival: Int64 = 0, inServiceStart: Int64 = 0
        var departures = 0, arrivalsCount = 0
        var sumWq = 0.0, sumW = 0.0
        let perBatch = max(1, (customers - warmup) / batches)
        var batchMeans = OnlineBatchMeans(batchSize: perBatch)

        queue.schedule(.arrival, at: .epoch + draw(arrivals, arrivalMean))
        while let e = queue.next() {
            let now = e.time.millisecondsSinceEpoch
            switch e.payload {
            case .arrival:
                arrivalsCount += 1
                if !busy {
                    busy = true
                    inServiceArrival = now; inServiceStart = now
                    queue.schedule(.departure, at: e.time + draw(services, serviceMean))
                } else {
                    waiting.push(now)
                }
                queue.schedule(.arrival, at: e.time + draw(arrivals, arrivalMean))
            case .departure:
                departures += 1
                let wq = Double(inServiceStart - inServiceArrival) / MM1Workload.unitMs
                sumWq += wq
                sumW += Double(now - inServiceArrival) / MM1Workload.unitMs
                if departures > warmup { batchMeans.add(wq) }
                if departures == customers { break }
                if let next = waiting.pop() {
                    inServiceArrival = next; inServiceStart = now
                    queue.schedule(.departure, at: e.time + draw(services, serviceMean))
                } else {
                    busy = false
                }
            }
            if departures == customers { break }
        }
        return Result(events: arrivalsCount + departures, departures: departures,
                      meanWq: sumWq / Double(departures), meanW: sumW / Double(departures),
                      wqBatches: batchMeans, heapPeak: queue.peakSize, queuePeak: waiting.peak)
    }
}

/// `Int64(x.rounded())` for a draw `x` ≥ 0 (or −0), without a call to libm's `round`: the integer part by the
/// conversion (truncation), plus one when the fraction is at least ½ — exactly `round`'s half-away-from-zero, since
/// `x − trunc(x)` is exact. Traps where the conversion of `x.rounded()` would (not finite, or ≥ 2⁶³). The ½ test is
/// a select, not a branch: it is a coin flip, and a mispredicted branch per draw costs more than the call it replaced.
@inline(__always) func roundedMilliseconds(_ x: Double) -> Int64 {
    let whole = Int64(x)
    let up: Int64 = x - Double(whole) >= 0.5 ? 1 : 0
    return whole &+ up
}

/// A growable FIFO ring of integers (waiting customers' arrival times), over its own buffer (no copy-on-write
/// check per push; noncopyable, so the buffer has one owner and is freed once).
struct RingBuffer: ~Copyable {
    var storage: UnsafeMutablePointer<Int64>
    /// Capacity − 1 (the capacity is a power of two).
    var mask: Int
    var head = 0, count = 0, peak = 0
    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "RingBuffer capacity must be a power of two")
        storage = .allocate(capacity: capacity)
        mask = capacity - 1
    }
    deinit { storage.deallocate() }

    @inline(__always) mutating func push(_ v: Int64) {
        if _slowPath(count > mask) { grow() }
        storage[(head &+ count) & mask] = v
        count &+= 1
        if count > peak { peak = count }
    }
    @inline(never) mutating func grow() {
        let bigger = UnsafeMutablePointer<Int64>.allocate(capacity: 2 * (mask + 1))
        for k in 0..<count { bigger[k] = storage[(head + k) & mask] }
        storage.deallocate()
        storage = bigger
        mask = 2 * (mask + 1) - 1
        head = 0
    }
    @inline(__always) mutating func pop() -> Int64? {
        guard count > 0 else { return nil }
        let v = storage[head]
        head = (head &+ 1) & mask
        count &-= 1
        return v
    }
}

/// Non-overlapping batch means of a stationary but autocorrelated series, for a confidence interval of its mean.
struct OnlineBatchMeans {
    let batchSize: Int
    var current = 0.0, inCurrent = 0
    var means: [Double] = []
    init(batchSize: Int) { self.batchSize = batchSize }
    mutating func add(_ v: Double) {
        current += v
        inCurrent += 1
        if inCurrent == batchSize { means.append(current / Double(batchSize)); current = 0; inCurrent = 0 }
    }
    /// Mean of the batch means and the half-width of its confidence interval at `level` (Student t, k−1 df).
    func interval(level: Double) -> (mean: Double, halfWidth: Double, batches: Int) {
        let s = Summary(means)
        let ci = s.confidenceInterval(level: level)
        return (s.mean, ci?.halfWidth ?? .infinity, means.count)
    }
}
