import Foundation
import Synchronization

/// When to draw a progress bar on standard error.
public enum ProgressMode: String, Sendable, CaseIterable {
    /// Only when standard error is a terminal.
    case auto
    case always
    case never

    /// Whether a bar should be drawn now.
    public var isEnabled: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return isatty(STDERR_FILENO) == 1
        }
    }
}

/// A one-line progress bar on standard error: items done, rate, and estimated time left.
///
/// Redraws at most ten times a second; thread-safe. Uses the monotonic clock (the only clock the simulator reads,
/// and only for this display and the manifest's wall time).
public final class ProgressBar: Sendable {
    struct State { var lastDraw: ContinuousClock.Instant?; var finished = false }
    let total: Int
    let unit: String
    let label: String
    let enabled: Bool
    let start = ContinuousClock.now
    let state = Mutex(State())

    public init(total: Int, unit: String = "people", label: String = "", mode: ProgressMode) {
        self.total = total
        self.unit = unit
        self.label = label
        self.enabled = mode.isEnabled && total > 0
    }

    /// Reports `done` items finished.
    public func update(_ done: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let line: String? = state.withLock { s in
            if s.finished { return nil }
            if let last = s.lastDraw, now - last < .milliseconds(100), done < total { return nil }
            s.lastDraw = now
            return render(done: done, elapsed: now - start)
        }
        if let line { FileHandle.standardError.write(Data(("\r" + line).utf8)) }
    }

    /// Draws the final state and ends the line.
    public func finish(_ done: Int) {
        guard enabled else { return }
        let line: String? = state.withLock { s in
            if s.finished { return nil }
            s.finished = true
            return render(done: done, elapsed: ContinuousClock.now - start)
        }
        if let line { FileHandle.standardError.write(Data(("\r" + line + "\n").utf8)) }
    }

    func render(done: Int, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let width = 28
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Double(total - done) / rate : .infinity
        let prefix = label.isEmpty ? "" : label + " "
        return "\(prefix)[\(bar)] \(done)/\(total) \(unit)  \(ProgressBar.compact(rate))/s  ETA \(ProgressBar.clock(eta))   "
    }

    static func compact(_ v: Double) -> String {
        if v >= 1e6 { return String(format: "%.1fM", v / 1e6) }
        if v >= 1e3 { return String(format: "%.1fk", v / 1e3) }
        return String(format: "%.0f", v)
    }

    static func clock(_ s: Double) -> String {
        guard s.isFinite else { return "--:--" }
        let t = Int(s.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%d:%02d", t / 60, t % 60)
    }
}
