import RulesCore

/// A phone model the simulated people carry: its battery and how costly work is on its chip, relative to the
/// reference generation (Apple A15).
public struct Device: Hashable, Sendable, Identifiable {
    /// Scenario id (`population.devices`), e.g. `iphone-13`.
    public let id: String
    /// Display name, e.g. `iPhone 13`.
    public let name: String
    /// The system-on-chip, for the record (e.g. `A15 Bionic`).
    public let chip: String
    /// Rated battery energy in watt-hours.
    public let batteryWh: Double
    /// Where `batteryWh` comes from.
    public let batterySource: ParameterSource
    /// Multiplier on every per-activity energy cost of `EnergyModel` (1 = A15 generation).
    public let powerScale: Double
    /// Where `powerScale` comes from.
    public let powerScaleSource: ParameterSource

    public init(id: String, name: String, chip: String, batteryWh: Double, batterySource: ParameterSource,
                powerScale: Double, powerScaleSource: ParameterSource) {
        precondition(batteryWh > 0 && batteryWh.isFinite, "Device \(id): battery must be positive")
        precondition(powerScale > 0 && powerScale.isFinite, "Device \(id): power scale must be positive")
        self.id = id
        self.name = name
        self.chip = chip
        self.batteryWh = batteryWh
        self.batterySource = batterySource
        self.powerScale = powerScale
        self.powerScaleSource = powerScaleSource
    }

    /// Battery energy in joules (Wh × 3600).
    public var batteryJoules: Double { batteryWh * 3600 }

    /// `joules` as a percentage of a full battery.
    public func percent(ofJoules joules: Double) -> Double { joules / batteryJoules * 100 }
}

/// An unknown device id, with a "did you mean" when one is close.
public struct UnknownDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The id that was asked for.
    public let id: String
    /// The closest known id, if it is a likely typo.
    public let suggestion: String?
    /// Every known id, in catalogue order.
    public let known: [String]

    public var description: String {
        var text = "unknown device '\(id.echoed())'"
        if let suggestion { text += "; did you mean '\(suggestion)'?" }
        return text + " (known: " + AllowedList.text(known) + ")"
    }
}

/// The phones Habitat knows (docs/DESIGN.md, principle 7 and calibration "Batteries").
///
/// Capacities are the rated figures printed on the battery labels in the models' regulatory filings, as quoted in
/// docs/DESIGN.md; nominal cell voltage is 3.85–3.88 V, so Wh ≈ mAh × 3.87 V / 1000.
public enum DeviceCatalog {
    static let designBatteries = "docs/DESIGN.md calibration \"Batteries\" (rated battery-label energy from regulatory filings)"
    static let scaleWhy = "older SoCs spend more energy per operation; A15 generation = 1.0, about ±5–10% per chip"
        + " generation on the same task (Habitat's choice, not a measurement)"

    /// Every device, oldest first; the first of the five required models is `iphone-se-3`.
    public static let all: [Device] = [
        Device(id: "iphone-se-3", name: "iPhone SE (3rd generation)", chip: "A15 Bionic",
               batteryWh: 7.82, batterySource: .publication(designBatteries + " ≈ 7.8 Wh; label 2018 mAh, 7.82 Wh"),
               powerScale: 1.0, powerScaleSource: .assumption("A15 like iPhone 13; its smaller LCD is not modelled separately. " + scaleWhy)),
        Device(id: "iphone-12", name: "iPhone 12", chip: "A14 Bionic",
               batteryWh: 10.78, batterySource: .publication(designBatteries + " ≈ 10.8 Wh; label 2815 mAh, 10.78 Wh"),
               powerScale: 1.10, powerScaleSource: .assumption("A14, one generation older than the reference. " + scaleWhy)),
        Device(id: "iphone-13", name: "iPhone 13", chip: "A15 Bionic",
               batteryWh: 12.41, batterySource: .publication(designBatteries + " ≈ 12.4 Wh; label 3227 mAh, 12.41 Wh"),
               powerScale: 1.0, powerScaleSource: .assumption("the reference chip generation. " + scaleWhy)),
        Device(id: "iphone-14", name: "iPhone 14", chip: "A15 Bionic (5-core GPU)",
               batteryWh: 12.68, batterySource: .assumption("not in docs/DESIGN.md: 3279 mAh × 3.87 V nominal = 12.68 Wh (battery-label figure as reported from regulatory filings)"),
               powerScale: 1.0, powerScaleSource: .assumption("A15, the reference generation. " + scaleWhy)),
        Device(id: "iphone-15", name: "iPhone 15", chip: "A16 Bionic",
               batteryWh: 12.98, batterySource: .publication(designBatteries + " ≈ 13.0 Wh; label 3349 mAh, 12.98 Wh"),
               powerScale: 0.95, powerScaleSource: .assumption("A16 (4 nm), one generation newer than the reference. " + scaleWhy)),
        Device(id: "iphone-15-pro", name: "iPhone 15 Pro", chip: "A17 Pro",
               batteryWh: 12.67, batterySource: .assumption("not in docs/DESIGN.md: 3274 mAh × 3.87 V nominal = 12.67 Wh (battery-label figure as reported from regulatory filings)"),
               powerScale: 0.92, powerScaleSource: .assumption("A17 Pro (3 nm), two generations newer than the reference. " + scaleWhy)),
    ]

    /// Every device id, in catalogue order.
    public static var ids: [String] { all.map(\.id) }

    /// The device with `id`, or nil.
    public static func lookup(_ id: String) -> Device? { all.first { $0.id == id } }

    /// The device with `id`.
    /// - Throws: `UnknownDeviceError` naming the closest known id (RulesCore `Suggestion.closest`).
    public static func device(id: String) throws(UnknownDeviceError) -> Device {
        if let d = lookup(id) { return d }
        throw UnknownDeviceError(id: id, suggestion: Suggestion.closest(to: id, among: ids), known: ids)
    }

    /// The catalogue position of `id` (for a stable report order), or nil.
    static func order(of id: String) -> Int? { all.firstIndex { $0.id == id } }
}
