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
}
