import Behavior
import Foundation
import LazuriRules
import RulesCore
import Simulation

extension LazuriAdapter {
    // MARK: - Opening Lazuri itself

    /// Opening Lazuri on a cue (the shared engagement habit, `opensAppOnCue`, times `lazuri.open_share`). It opens on
    /// Learn (§4.2); the person then reads some cards, looks at the focus minutes (Focus), looks at the Compete tab —
    /// where the promise sheet is, and the rank when signed in to Game Center — or closes it again (`lazuri_visit`,
    /// `lazuri.visit.*`).
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.opensAppOnCue(cue) else { return }
        let k = life.world.constants
        if k.openShare < 1, life.sessions.uniform() >= k.openShare { return }
        life.send(.appOpened, at: now)
        life.engagement.record(.appOpened)
        life.offerDecision(.lazuriVisit, moment: now.millisecondsSinceEpoch)
        let day = life.summary.tally.day(life.dayIndex)
        life.summary.tally.counts[.visits] += 1
        life.summary.tally.cards[day].visits += 1
        let u = life.sessions.uniform()
        if u < k.readCardsShare {
            life.decide(.lazuriVisit, .readCards, at: now)
            readCards(&life, at: now)
        } else if u < k.readCardsShare + k.minutesShare {
            life.decide(.lazuriVisit, .lookAtMinutes, at: now)
            life.send(.tabOpened(.focus), at: now)
            if life.engine.totalFocusMinutes > life.state.minutesSeen {
                // "Minutes that served you" grew since the person last looked (§4.3).
                life.state.minutesSeen = life.engine.totalFocusMinutes
                life.engagement.record(.value(k.focusMinutesValue, .minutesKept))
            }
            life.meter.charge(EnergyCharge(.foregroundSecond, 10), phoneInUse: true)
        } else if u < k.readCardsShare + k.minutesShare + k.rankShare {
            life.decide(.lazuriVisit, .lookAtRank, at: now)
            compete(&life, at: now)
        } else {
            life.decide(.lazuriVisit, .closeLazuri, at: now)
        }
        life.send(.appClosed, at: now)
    }

    /// Learn: the current card shows, then the person swipes forward through 1 + Poisson(`lazuri.cards_per_visit` − 1)
    /// cards, each read for a lognormal time of median `lazuri.card_seconds` (σ 0.5; inventory §8.6), charged as
    /// foreground time. Unique views, achievements and the score follow from the engine.
    static func readCards(_ life: inout PersonLife<Self>, at now: Instant) {
        let k = life.world.constants
        let day = life.summary.tally.day(life.dayIndex)
        life.summary.tally.cards[day].readingVisits += 1
        life.send(.tabOpened(.learn), at: now)
        let swipes = life.sessions.poisson(mean: max(0, k.cardsPerVisit - 1))
        var seconds = 0.0
        for _ in 0...swipes {
            seconds += life.sessions.lognormal(mu: log(k.cardSeconds), sigma: 0.5)
        }
        for _ in 0..<swipes { life.send(.swipe(.next), at: now) }
        life.meter.charge(EnergyCharge(.foregroundSecond, seconds), phoneInUse: true)
        // Reading keeps the phone in hand: the pickup lasts at least until the last card is read (`beBusy(until:)`).
        life.beBusy(until: now + .milliseconds(Int64((seconds * 1000).rounded())), with: "reading cards")
    }

    /// Right after the first schedule is switched on, the person goes to Compete and writes a promise there and then
    /// (`lazuri.promise_at_setup_probability`). Both draws are made whatever the probability, so arms that differ in
    /// it keep every later draw paired (`Scenarios/lazuri-promise.yaml`).
    static func promiseAtSetup(_ life: inout PersonLife<Self>, at now: Instant) {
        let writes = life.features.uniform() < life.world.constants.promiseAtSetup
        let characters = promiseLength(&life)
        guard writes else { return }
        life.send(.tabOpened(.compete), at: now)
        if life.dayIndex <= 7 { life.state.checklist.insert(.compete) }
        life.offerDecision(.promiseWrite, moment: now.millisecondsSinceEpoch)
        life.decide(.promiseWrite, .write, at: now)
        writePromise(characters: characters, &life, at: now)
    }

    /// Compete: the promise sheet is offered (`promise_write`: write one when there is none, rewrite it, or not), and a
    /// person signed in to Game Center looks at the leaderboard (their rank).
    static func compete(_ life: inout PersonLife<Self>, at now: Instant) {
        let k = life.world.constants
        life.send(.tabOpened(.compete), at: now)
        if life.dayIndex <= 7 { life.state.checklist.insert(.compete) }
        life.offerDecision(.promiseWrite, moment: now.millisecondsSinceEpoch)
        let has = life.engine.promiseLength > 0
        if life.features.uniform() < (has ? k.promiseRewriteProbability : k.promiseWriteProbability) {
            life.decide(.promiseWrite, has ? .rewrite : .write, at: now)
            writePromise(&life, at: now)
        } else {
            life.decide(.promiseWrite, .promiseSkip, at: now)
        }
        if life.engine.gameCenterSignedIn { life.send(.gameCenterViewOpened(.leaderboards), at: now) }
        life.meter.charge(EnergyCharge(.foregroundSecond, 15), phoneInUse: true)
    }

    /// The promise saved: a lognormal length of median `lazuri.promise_median_characters` (σ 0.8; the engine cuts at
    /// 900). New words meet the urge afresh: the wear-out starts again (dishabituation to a novel stimulus).
    static func writePromise(_ life: inout PersonLife<Self>, at now: Instant) {
        writePromise(characters: promiseLength(&life), &life, at: now)
    }

    /// A promise's length in characters: lognormal of median `lazuri.promise_median_characters`, σ 0.8.
    static func promiseLength(_ life: inout PersonLife<Self>) -> Int {
        max(1, Int(life.features.lognormal(mu: log(life.world.constants.promiseMedianCharacters), sigma: 0.8).rounded()))
    }

    static func writePromise(characters: Int, _ life: inout PersonLife<Self>, at now: Instant) {
        if life.send(.savePromise(characters: characters), at: now) == .updated { life.state.promiseExposures = 0 }
        life.meter.charge(EnergyCharge(.foregroundSecond, 60), phoneInUse: true)
    }
}
