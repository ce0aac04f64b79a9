import RulesCore

/// "The person is busy until t" (issue 42 item 2): a step of the product that keeps the person, phone in hand, from
/// anything else — a mindfulness exercise at Scroll Off's shield, a quest or the emergency wait at Earned Access's gate,
/// a scan in Clavis. While busy, the phone stays in hand (`putDownIfDone` does not put it down) and an urge arriving
/// is dropped by the one call the adapter makes where it meets it (`dropUrgeIfBusy`, settled as neither acted on nor
/// passed: `dropUrge`). Busy ends at `t`, or earlier when the adapter calls `endBusy()` (the step ended: the
/// exercise's end, the gate granting or left).
extension PersonLife {
    /// The person is busy with `what` until `t` (not after; `endBusy()` ends it earlier). `what` names it in the
    /// timeline ("busy with exercise").
    ///
    /// In a pickup the product took no other part in (no shield shown, no session started: an opening on a cue), the
    /// phone stays in hand until the later of the session the person meant and the step's end, and the life wakes at
    /// `t` to put it down (`Event.busyEnds`); a product's own steps (an exercise at a shield, a quest, a wait) end with
    /// the product's events, as before.
    public mutating func beBusy(until t: Instant, with what: String) {
        busyUntil = t
        busyWith = what
        if heldPickup != nil, !heldEngaged, t < Instant(millisecondsSinceEpoch: .max) { schedule(.busyEnds, at: t) }
    }

    /// The person is busy with `what` until the adapter calls `endBusy()` (a step whose end is an event of the product:
    /// an engine's grant, an intent coming due).
    public mutating func beBusy(with what: String) {
        beBusy(until: Instant(millisecondsSinceEpoch: .max), with: what)
    }

    /// The step keeping the person busy is over.
    public mutating func endBusy() {
        busyUntil = .epoch
    }

    /// The person is busy now (`beBusy`).
    public var isBusy: Bool { isBusy(at: now) }

    func isBusy(at t: Instant) -> Bool { t < busyUntil }

    /// An urge met while the person is busy is dropped (`dropUrge(busyWith:at:)`): returns true when it was, and the
    /// adapter answers it no further.
    public mutating func dropUrgeIfBusy(at now: Instant) -> Bool {
        guard isBusy(at: now) else { return false }
        dropUrge(busyWith: busyWith, at: now)
        return true
    }
}
