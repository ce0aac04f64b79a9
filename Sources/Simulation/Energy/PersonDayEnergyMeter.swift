import RulesCore

/// One person-day's battery drain caused by the app, as percentages of the device's battery.
public struct PersonDayBattery: Hashable, Sendable {
    /// Drain while the phone was idle (not in use), in % per idle hour; nil when the phone was never idle.
    public var idlePctPerHour: Double?
    /// Drain while the phone was in use, in % per in-use hour; nil when the phone was not used that day.
    public var activePctPerHour: Double?
    /// All of the day's drain, in % per 24 h (a 23 h or 25 h daylight-saving day is scaled to 24 h).
    public var pctPer24h: Double

    public init(idlePctPerHour: Double?, activePctPerHour: Double?, pctPer24h: Double) {
        self.idlePctPerHour = idlePctPerHour
        self.activePctPerHour = activePctPerHour
        self.pctPer24h = pctPer24h
    }

    /// The value of one report metric, nil when undefined that day.
    public subscript(_ metric: BatteryMetric) -> Double? {
        switch metric {
        case .idlePctPerHour: idlePctPerHour
        case .activePctPerHour: activePctPerHour
        case .pctPer24h: pctPer24h
        }
    }
}

/// Accumulates the energy one person's app spends during one local day, split by whether the phone was in use
/// when each charge happened.
///
/// A value type of fixed size: charging does no allocation and no hashing, only a switch and two additions.
/// Create one per person with their device and the run's `EnergyModel`, feed it charges, read `battery()` at the
/// end of the day, then `startNewDay()`.
public struct PersonDayEnergyMeter: Hashable, Sendable {
    /// The person's device.
    public let device: Device
    /// Joules per unit on this device (model costs × device power scale).
    public let prices: EnergyVector
    /// Joules charged while the phone was idle, by activity.
    public private(set) var idleJoules = EnergyVector()
    /// Joules charged while the phone was in use, by activity.
    public private(set) var activeJoules = EnergyVector()
    /// Seconds the phone was in use today.
    public private(set) var inUseSeconds = 0.0

    public init(device: Device, model: EnergyModel = .default) {
        self.device = device
        self.prices = model.prices(on: device)
    }

    /// Charges `charge`; `phoneInUse` says whether the phone was in use (screen on, unlocked) at the time.
    public mutating func charge(_ charge: EnergyCharge, phoneInUse: Bool) {
        precondition(charge.quantity >= 0 && charge.quantity.isFinite, "energy charge quantity must be finite and non-negative")
        let joules = charge.quantity * prices[charge.activity]
        if phoneInUse { activeJoules[charge.activity] += joules } else { idleJoules[charge.activity] += joules }
    }

    /// Adds seconds of phone use (any app) to today's in-use time.
    public mutating func addInUseSeconds(_ seconds: Double) {
        precondition(seconds >= 0 && seconds.isFinite, "in-use seconds must be finite and non-negative")
        inUseSeconds += seconds
    }

    /// Today's joules by activity, idle and in use together.
    public var joulesByActivity: EnergyVector { EnergyVector { idleJoules[$0] + activeJoules[$0] } }
    /// Today's joules in all.
    public var totalJoules: Double { idleJoules.total + activeJoules.total }

    /// Today's drain as percentages of the battery.
    ///
    /// - idle %/h = idle-time joules / battery joules × 100 / idle hours, idle hours = (day length − in-use time);
    /// - active %/h = in-use joules / battery joules × 100 / in-use hours;
    /// - %/24 h = all joules / battery joules × 100 × 86 400 / day length.
    /// In-use time longer than the day is capped at the day.
    /// - Parameter dayLengthSeconds: the local day's length (86 400, or 82 800 / 90 000 on daylight-saving days).
    public func battery(dayLengthSeconds: Double = 86_400) -> PersonDayBattery {
        precondition(dayLengthSeconds > 0, "day length must be positive")
        let inUse = min(inUseSeconds, dayLengthSeconds)
        let idleSeconds = dayLengthSeconds - inUse
        let idlePct = device.percent(ofJoules: idleJoules.total)
        let activePct = device.percent(ofJoules: activeJoules.total)
        return PersonDayBattery(
            idlePctPerHour: idleSeconds > 0 ? idlePct / (idleSeconds / 3600) : nil,
            activePctPerHour: inUse > 0 ? activePct / (inUse / 3600) : nil,
            pctPer24h: (idlePct + activePct) * (86_400 / dayLengthSeconds))
    }

    /// Clears today's charges and in-use time (device and prices are kept).
    public mutating func startNewDay() {
        idleJoules = EnergyVector()
        activeJoules = EnergyVector()
        inUseSeconds = 0
    }
}
