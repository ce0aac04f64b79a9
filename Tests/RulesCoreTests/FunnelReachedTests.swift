import Testing
@testable import RulesCore

/// The one funnel rule (`FunnelStage.reached`), shared by every product: windows count from each stage's own anchor.
@Suite("Funnel stages reached")
struct FunnelReachedTests {
    static func stage(_ order: Int, _ id: String, anchor: String?, hours: Int64?) -> FunnelStage {
        FunnelStage(order: order, id: id, name: id, event: id, windowAnchor: anchor, window: hours.map { .hours($0) },
                    targetMin: nil, targetMax: nil)
    }
    static let t0 = Instant(millisecondsSinceEpoch: 1_700_000_000_000)

    @Test("a window counts from its anchor, not from the first stage")
    func windowFromItsAnchor() {
        // S2 must come within 24 h of S1 (not of S0): 30 h after S0 but 10 h after S1 is in time.
        let stages = [Self.stage(1, "S0", anchor: nil, hours: nil), Self.stage(2, "S1", anchor: "S0", hours: 48),
                      Self.stage(3, "S2", anchor: "S1", hours: 24)]
        let inTime: [Instant?] = [Self.t0, Self.t0 + .hours(20), Self.t0 + .hours(30)]
        #expect(FunnelStage.reached(stages, firstAt: inTime) == [true, true, true])
        let late: [Instant?] = [Self.t0, Self.t0 + .hours(2), Self.t0 + .hours(30)]
        #expect(FunnelStage.reached(stages, firstAt: late) == [true, true, false])
    }

    @Test("a stage counts only after every earlier one, and a missed window stops the rest")
    func inOrder() {
        let stages = [Self.stage(1, "S0", anchor: nil, hours: nil), Self.stage(2, "S1", anchor: "S0", hours: 1),
                      Self.stage(3, "S2", anchor: nil, hours: nil)]
        #expect(FunnelStage.reached(stages, firstAt: [Self.t0, nil, Self.t0 + .hours(5)]) == [true, false, false])
        #expect(FunnelStage.reached(stages, firstAt: [Self.t0, Self.t0 + .hours(2), Self.t0 + .hours(5)]) == [true, false, false])
        #expect(FunnelStage.reached(stages, firstAt: [nil, Self.t0, Self.t0]) == [false, false, false])
    }

    /// Issue 38: a stage whose target is a share of installs (seed 001 §11 "Day-7 retention 35%") stands apart from
    /// the chain: it is reached whatever the chain did, and a chained stage after it still needs the chain before it.
    @Test("a stage outside the chain counts without the stages before it; the chain skips it")
    func outsideTheChain() {
        var d7 = Self.stage(3, "D7", anchor: nil, hours: nil)
        d7.basis = .installs(observedPastDay: 7)
        d7.chained = false
        let stages = [Self.stage(1, "S0", anchor: nil, hours: nil), Self.stage(2, "S1", anchor: "S0", hours: 1), d7,
                      Self.stage(4, "S2", anchor: nil, hours: nil)]
        // S1 missed: D7 still counts; S2 (chained on S1, the chained stage before it) does not.
        #expect(FunnelStage.reached(stages, firstAt: [Self.t0, nil, Self.t0 + .days(7), Self.t0 + .days(8)]) == [true, false, true, false])
        // S1 reached, D7 not: S2 counts, its chain (S0, S1) unbroken.
        #expect(FunnelStage.reached(stages, firstAt: [Self.t0, Self.t0 + .minutes(5), nil, Self.t0 + .days(8)]) == [true, true, false, true])
        #expect(FunnelStage.chainPredecessor(of: 3, in: stages) == 1 && FunnelStage.chainPredecessor(of: 0, in: stages) == nil)
    }

    @Test("a basis of installs observed past day N includes only lives observed beyond local day N")
    func basisPopulation() {
        #expect(FunnelBasis.installs(observedPastDay: 7).includes(observedDays: 8))
        #expect(!FunnelBasis.installs(observedPastDay: 7).includes(observedDays: 7))
        #expect(FunnelBasis.installs(observedPastDay: nil).includes(observedDays: 1) && FunnelBasis.previousStage.includes(observedDays: 0))
        #expect(FunnelBasis.installs(observedPastDay: 7).text == "installs_observed_past_day_7")
        #expect(FunnelBasis.installs(observedPastDay: nil).text == "installs" && FunnelBasis.previousStage.text == "previous_stage")
    }

    @Test("a stage built from the start: its window counts from the first stage; a share of installs leaves the chain (issue 42)")
    func fromStart() {
        let chained = FunnelStage.fromStart("X0", 2, "X1", "one", "e1", .hours(24))
        #expect(chained == FunnelStage(order: 2, id: "X1", name: "one", event: "e1", windowAnchor: "X0", window: .hours(24),
                                       targetMin: nil, targetMax: nil))
        #expect(FunnelStage.fromStart("X0", 1, "X0", "start", "e0", nil).windowAnchor == nil)
        let apart = FunnelStage.fromStart("X0", 3, "X2", "share", "e2", nil, target: 0.35, shareOfInstalls: .installs(observedPastDay: 7))
        #expect(apart.targetMin == 0.35 && apart.targetMax == nil && !apart.chained && apart.basis == .installs(observedPastDay: 7))
        #expect(apart.windowAnchor == nil && FunnelStage.fromStart("X0", 3, "X2", "s", "e", nil, target: 0.5).chained)
    }
}
