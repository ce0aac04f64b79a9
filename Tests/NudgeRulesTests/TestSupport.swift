import HabitatTestSupport
import RulesCore
@testable import NudgeRules

/// The example tests' host (`HabitatTestSupport.EngineHarness`) for Nudge: New York (DST) unless told otherwise,
/// day 0 Wednesday 2026-02-11, install at 07:00.
typealias Harness = EngineHarness<NudgeEngine>

let newYork = try! ZoneCalendar(identifier: "America/New_York", startingOn: LocalDate(year: 2026, month: 1, day: 1)!, days: 400)

extension EngineHarness where Engine == NudgeEngine {
    init(zone: ZoneCalendar = newYork, day0: LocalDate = LocalDate(year: 2026, month: 2, day: 11)!,
         parameters: NudgeParameters = .defaults, at hour: Int = 7, minute: Int = 0) {
        self.init(parameters: parameters, zone: zone, day0: day0, hour: hour, minute: minute)
    }

    /// First open and onboarding at the install instant; optionally notifications and microphone granted, Pro bought.
    mutating func start(pro: Bool = false, notifications: Bool = true, mic: Bool = true) {
        let t = now
        send(.appOpened(via: .icon), at: t)
        send(.onboarding(panelsViewed: 3, skipped: false), at: t)
        if notifications { send(.permission(.notifications, granted: true), at: t) }
        if mic { send(.permission(.microphone, granted: true), at: t) }
        if pro { send(.paywallResponse(.monthly), at: t) }
        send(.appClosed, at: t)
    }

    /// Adds a typed card; returns its id.
    @discardableResult
    mutating func add(_ ref: UInt64, _ action: ActionType? = nil, at t: Instant) -> ItemID {
        send(.addManual(Thought(ref: ref, action: action, words: 3)), at: t)
        return engine.item(ref: ref)!.id
    }

    /// Decisions of one kind of input since index `from`.
    var lastDecision: NudgeDecision { decisions.last!.2 }

    /// The instants of the events of one name.
    func times(_ name: String) -> [Instant] { log.filter { $0.1.name == name }.map(\.0) }

    /// Effects of a kind in the log.
    func effects(_ match: (NudgeEffect) -> Bool) -> Int { effectsLog.filter { match($0.1) }.count }

    var aiRequests: Int { effects { if case .aiRequest = $0 { true } else { false } } }
}

/// The default parameters with some catalogue values changed.
func params(_ changes: [String: ParameterValue]) -> NudgeParameters {
    var v = ParameterValues(defaultsOf: NudgeParameters.catalogue)
    for (k, x) in changes { v[k] = x }
    return NudgeParameters(values: v)
}

func render(_ e: NudgeEvent) -> String { Harness.render(e) }

/// `n` thoughts of `words` words with refs from `first`.
func thoughts(_ n: Int, from first: UInt64 = 100, words: Int = 5, action: ActionType? = nil) -> [Thought] {
    (0..<n).map { Thought(ref: first + UInt64($0), action: action, words: words) }
}
