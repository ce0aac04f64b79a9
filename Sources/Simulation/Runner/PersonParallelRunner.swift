import Foundation
import Synchronization
import Reports

/// Runs independent people across worker threads and folds their outcomes into one result that is
/// bit-identical whatever the thread count (docs/DESIGN.md, principle 4).
///
/// People are cut into fixed blocks of `blockSize` consecutive ids. Each block is simulated by one worker into a
/// fresh accumulator, in id order; finished blocks are merged into the total strictly in block order (a block
/// that finishes early waits in a small buffer). The floating-point history of the total therefore depends only
/// on the block size, never on the number of threads or on scheduling, and memory stays O(threads) blocks.
public struct PersonParallelRunner: Sendable {
    /// Worker threads (≥ 1).
    public var threads: Int
    /// People per block (fixed for reproducibility; part of the result's identity).
    public var blockSize: Int

    /// The machine's active processor count.
    public static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    public init(threads: Int = PersonParallelRunner.defaultThreads, blockSize: Int = 64) {
        precondition(threads >= 1 && blockSize >= 1)
        self.threads = threads
        self.blockSize = blockSize
    }

    /// Simulates people `0..<count`: `simulate(person, &accumulator)` for each, blocks folded in order.
    ///
    /// - Parameters:
    ///   - progress: called with the number of people done so far, after each block.
    ///   - shouldStop: polled before each person; default: a SIGINT was received (`StopRequest`).
    /// - Throws: `RunInterrupted` when a stop is requested; the first error a person throws otherwise.
    public func run<Accumulator: Mergeable & Sendable>(
        people count: Int,
        makeAccumulator: @escaping @Sendable () -> Accumulator,
        progress: (@Sendable (Int) -> Void)? = nil,
        shouldStop: @escaping @Sendable () -> Bool = { StopRequest.isRequested },
        simulate: @escaping @Sendable (Int, inout Accumulator) throws -> Void
    ) throws -> Accumulator {
        try run(people: 0..<count, makeAccumulator: makeAccumulator, progress: progress, shouldStop: shouldStop, simulate: simulate)
    }

    /// Simulates the people whose ids are in `range` (a shard's block, `ShardSpec`), blocks of `blockSize` counted
    /// from `range.lowerBound` and folded in order; otherwise as `run(people:…)`.
    public func run<Accumulator: Mergeable & Sendable>(
        people range: Range<Int>,
        makeAccumulator: @escaping @Sendable () -> Accumulator,
        progress: (@Sendable (Int) -> Void)? = nil,
        shouldStop: @escaping @Sendable () -> Bool = { StopRequest.isRequested },
        simulate: @escaping @Sendable (Int, inout Accumulator) throws -> Void
    ) throws -> Accumulator {
        let count = range.count, first = range.lowerBound
        let blocks = (count + blockSize - 1) / blockSize
        let state = FoldState<Accumulator>(total: makeAccumulator())
        let nextBlock = Atomic<Int>(0)
        let blockSize = self.blockSize
        let work: @Sendable () -> Void = {
            while true {
                if shouldStop() { state.fail(RunInterrupted(signal: StopRequest.received)); return }
                if state.hasFailed { return }
                let b = nextBlock.add(1, ordering: .relaxed).oldValue
                if b >= blocks { return }
                var acc = makeAccumulator()
                let lo = first + b * blockSize, hi = min(first + count, lo + blockSize)
                do {
                    for person in lo..<hi {
                        if shouldStop() { throw RunInterrupted(signal: StopRequest.received) }
                        try simulate(person, &acc)
                    }
                } catch {
                    state.fail(error)
                    return
                }
                if let done = state.deliver(block: b, people: hi - lo, accumulator: acc) { progress?(done) }
            }
        }
        let workers = min(threads, max(1, blocks))
        if workers == 1 {
            work()
        } else {
            let group = DispatchGroup()
            for _ in 0..<workers {
                group.enter()
                let t = Thread { work(); group.leave() }
                t.stackSize = 8 << 20
                t.start()
            }
            group.wait()
        }
        return try state.result()
    }
}

/// The in-order fold shared by the workers.
final class FoldState<Accumulator: Mergeable & Sendable>: Sendable {
    struct Inner {
        var total: Accumulator
        var nextToMerge = 0
        var waiting: [Int: Accumulator] = [:]
        var peopleDone = 0
        var error: (any Error)?
    }
    let inner: Mutex<Inner>
    let failed = Atomic<Bool>(false)

    init(total: Accumulator) { inner = Mutex(Inner(total: total)) }

    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    func fail(_ error: any Error) {
        inner.withLock { if $0.error == nil { $0.error = error } }
        failed.store(true, ordering: .relaxed)
    }

    /// Stores a finished block and merges every block now in order; returns people done.
    func deliver(block: Int, people: Int, accumulator: sending Accumulator) -> Int? {
        inner.withLock { s -> Int? in
            s.waiting[block] = accumulator
            s.peopleDone += people
            while let next = s.waiting.removeValue(forKey: s.nextToMerge) {
                s.total.merge(next)
                s.nextToMerge += 1
            }
            return s.peopleDone
        }
    }

    func result() throws -> Accumulator {
        try inner.withLock { s in
            if let e = s.error { throw e }
            precondition(s.waiting.isEmpty, "blocks left unmerged")
            return s.total
        }
    }
}
