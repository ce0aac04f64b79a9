import RulesCore
import Stochastics

/// An app the person wants blocked and how much they like it (0…1).
public struct BlockedApp: Hashable, Sendable {
    public var name: String
    public var liking: Double
    public init(name: String, liking: Double) { self.name = name; self.liking = liking }
}

/// The parameters of a person's phone-use process (see `PhoneUseProcess`).
public struct PhoneUseParameters: Hashable, Sendable {
    public var pickupsPerDay: Double
    public var burstiness: Double
    public var burstDecayMinutes: Double
    public var notificationShare: Double
    public var urgeShare: Double
    public var sessionLengthScale: Double
    public var weekendFactor: Double
    public var dailyProfile: DailyProfile
    /// Weeknight sleep start, local hours (may exceed 24, e.g. 25.0 = 01:00).
    public var sleepStartHour: Double
    public var sleepHours: Double

    public init(pickupsPerDay: Double = 80, burstiness: Double = 0.45, burstDecayMinutes: Double = 1.5,
                notificationShare: Double = 0.11, urgeShare: Double = 0.3, sessionLengthScale: Double = 1,
                weekendFactor: Double = 1.04, dailyProfile: DailyProfile = .dayWorker,
                sleepStartHour: Double = 23.5, sleepHours: Double = 7.4) {
        self.pickupsPerDay = pickupsPerDay
        self.burstiness = burstiness
        self.burstDecayMinutes = burstDecayMinutes
        self.notificationShare = notificationShare
        self.urgeShare = urgeShare
        self.sessionLengthScale = sessionLengthScale
        self.weekendFactor = weekendFactor
        self.dailyProfile = dailyProfile
        self.sleepStartHour = sleepStartHour
        self.sleepHours = sleepHours
    }
}

/// One synthetic person, drawn once from a persona and fixed for the run (except the evolving state the adapter
/// carries: habits, self-efficacy, engagement).
public struct Person: Hashable, Sendable {
    public let id: UInt64
    public let personaName: String
    /// Apps the person wants blocked, most liked first.
    public var apps: [BlockedApp]
    public var willingnessToPayUSDPerMonth: Double
    public var techComfort: Double
    public var frustrationSensitivity: Double
    public var phoneUse: PhoneUseParameters
    public var scrollingHabit: HabitModel
    /// The competing habit of resisting, grown by willpower wins.
    public var resistHabit: HabitModel
    public var selfEfficacy: SelfEfficacy
    /// Initial strength of the habit of opening the blocker app itself.
    public var appOpenHabit: Double
    /// If-then planning when an app asks (drawn from the `personTraits` stream).
    public var planning: PlanningTraits = PlanningTraits()
    /// Optional features and ways round them (drawn from the `personTraits` stream).
    public var featureUse: FeatureUseTraits = FeatureUseTraits()
    /// Things to do: how many arise, forgetting, putting off (drawn from the `task-traits` stream; issue 29).
    public var tasks: TaskTraits = TaskTraits()

    /// Draws a person from the `population` and `personTraits` streams of `(seed, replication, person id)`.
    public static func draw(persona: Persona, id: UInt64, seed: UInt64, replication: UInt32) -> Person {
        let key = StreamKey(seed: seed, replication: replication, person: id, stream: .population)
        return draw(persona: persona, id: id, rng: RandomStream(key: key), traits: RandomStream(key: key.with(stream: .personTraits)))
    }

    /// Draws a person from the given stream (normally the person's `population` stream) and the later traits
    /// (`planning`, `featureUse`) from `traits` — by default the `personTraits` stream of `rng`'s key (of person
    /// `id`, seed 0, replication 0 when `rng` has no key). The order of draws in each stream is fixed: changing it
    /// changes every person; new traits go to the end of `PersonTraits.draw`.
    public static func draw(persona: Persona, id: UInt64, rng: RandomStream, traits: RandomStream? = nil) -> Person {
        var person = drawCore(persona: persona, id: id, rng: rng)
        let key = rng.key ?? StreamKey(seed: 0, replication: 0, person: id, stream: .population)
        let later = PersonTraits.draw(persona: persona, rng: traits ?? RandomStream(key: key.with(stream: .personTraits)))
        person.planning = later.planning
        person.featureUse = later.featureUse
        person.tasks = TaskTraits.draw(persona: persona, rng: RandomStream(key: key.with(stream: TaskTraits.stream)))
        return person
    }

    /// The first person model's draws, all from `rng`, in their original order.
    static func drawCore(persona: Persona, id: UInt64, rng: RandomStream) -> Person {
        let phone = PhoneUseParameters(
            pickupsPerDay: persona.draw(.pickupsPerDay, rng),
            burstiness: persona.draw(.burstiness, rng),
            burstDecayMinutes: persona.draw(.burstDecayMinutes, rng),
            notificationShare: persona.draw(.notificationShare, rng),
            urgeShare: persona.draw(.urgeShare, rng),
            sessionLengthScale: persona.draw(.sessionLengthScale, rng),
            weekendFactor: persona.draw(.weekendFactor, rng),
            dailyProfile: persona.dailyProfile,
            sleepStartHour: persona.draw(.sleepStartHour, rng),
            sleepHours: persona.draw(.sleepHours, rng))
        // Apps: weighted draws without replacement.
        let count = Int(persona.draw(.blockedAppCount, rng).rounded())
        var pool = persona.appWeights
        var apps: [BlockedApp] = []
        while apps.count < count, !pool.isEmpty {
            let i = rng.categorical(weights: pool.map(\.weight))
            apps.append(BlockedApp(name: pool[i].name, liking: persona.draw(.appLiking, rng)))
            pool.remove(at: i)
        }
        apps.sort { $0.liking > $1.liking }
        let scrolling = HabitModel(parameters: HabitModel.drawParameters(persona: persona, rng: rng),
                                   initialStrength: persona.draw(.initialScrollingHabit, rng))
        let resist = HabitModel(parameters: HabitModel.drawParameters(persona: persona, rng: rng),
                                initialStrength: persona.draw(.initialResistHabit, rng))
        return Person(
            id: id, personaName: persona.name, apps: apps,
            willingnessToPayUSDPerMonth: persona.draw(.willingnessToPay, rng),
            techComfort: persona.draw(.techComfort, rng),
            frustrationSensitivity: persona.draw(.frustrationSensitivity, rng),
            phoneUse: phone, scrollingHabit: scrolling, resistHabit: resist,
            selfEfficacy: SelfEfficacy(value: persona.draw(.selfEfficacy, rng)),
            appOpenHabit: persona.draw(.appOpenHabit, rng))
    }
}
