import RulesCore

/// One number per `EnergyActivity`, stored inline (no heap allocation), indexed by activity.
public struct EnergyVector: Hashable, Sendable {
    public var backgroundWake = 0.0
    public var monitorCallback = 0.0
    public var shieldRender = 0.0
    public var databaseWrite = 0.0
    public var notification = 0.0
    public var foregroundSecond = 0.0
    public var cameraSecond = 0.0
    public var speechSecond = 0.0
    public var networkRequest = 0.0

    /// All zeros.
    public init() {}

    /// A vector from a function of the activity.
    public init(_ value: (EnergyActivity) -> Double) {
        for a in EnergyActivity.allCases { self[a] = value(a) }
    }

    @inlinable public subscript(_ activity: EnergyActivity) -> Double {
        get {
            switch activity {
            case .backgroundWake: backgroundWake
            case .monitorCallback: monitorCallback
            case .shieldRender: shieldRender
            case .databaseWrite: databaseWrite
            case .notification: notification
            case .foregroundSecond: foregroundSecond
            case .cameraSecond: cameraSecond
            case .speechSecond: speechSecond
            case .networkRequest: networkRequest
            }
        }
        set {
            switch activity {
            case .backgroundWake: backgroundWake = newValue
            case .monitorCallback: monitorCallback = newValue
            case .shieldRender: shieldRender = newValue
            case .databaseWrite: databaseWrite = newValue
            case .notification: notification = newValue
            case .foregroundSecond: foregroundSecond = newValue
            case .cameraSecond: cameraSecond = newValue
            case .speechSecond: speechSecond = newValue
            case .networkRequest: networkRequest = newValue
            }
        }
    }

    /// Sum over activities, in `EnergyActivity.allCases` order.
    public var total: Double { EnergyActivity.allCases.reduce(0) { $0 + self[$1] } }

    /// Every component multiplied by `factor`.
    public func scaled(by factor: Double) -> EnergyVector { EnergyVector { self[$0] * factor } }

    /// Activity-wise sum.
    public static func + (a: EnergyVector, b: EnergyVector) -> EnergyVector { EnergyVector { a[$0] + b[$0] } }
}

/// Energy per unit of each `EnergyActivity` on the reference chip generation (A15), in joules; a device's
/// `powerScale` multiplies these (docs/DESIGN.md, principle 7).
///
/// Units: per event for wakes, callbacks, renders, write batches, notifications and requests; per second for
/// foreground UI, camera and speech. Every default is documented in `catalogue` with its source. The costs are
/// the app's *marginal* energy: the screen a person was going to look at anyway (e.g. while a shield is shown
/// over the app they opened) is not charged to the app.
public struct EnergyModel: Hashable, Sendable {
    /// Joules per unit, by activity, on the reference chip.
    public var joulesPerUnit: EnergyVector

    public init(joulesPerUnit: EnergyVector) {
        for a in EnergyActivity.allCases {
            precondition(joulesPerUnit[a] >= 0 && joulesPerUnit[a].isFinite, "EnergyModel: \(a.rawValue) must be a finite non-negative energy")
        }
        self.joulesPerUnit = joulesPerUnit
    }

    /// The defaults of `catalogue`.
    public static let `default` = EnergyModel(values: ParameterValues(defaultsOf: catalogue))

    /// A model from resolved parameter values keyed by `catalogue` key paths (missing keys take the default).
    public init(values: ParameterValues) {
        var v = EnergyVector()
        for a in EnergyActivity.allCases {
            let key = EnergyModel.keyPath(a)
            v[a] = values[key]?.doubleValue ?? EnergyModel.catalogue.first { $0.keyPath == key }!.defaultValue.doubleValue!
        }
        self.init(joulesPerUnit: v)
    }

    /// Joules for `charge` on `device`: quantity × joules per unit × the device's power scale.
    @inlinable public func joules(_ charge: EnergyCharge, on device: Device) -> Double {
        charge.quantity * joulesPerUnit[charge.activity] * device.powerScale
    }

    /// Joules per unit on `device` (the reference costs times its power scale).
    public func prices(on device: Device) -> EnergyVector { joulesPerUnit.scaled(by: device.powerScale) }

    /// The scenario key path of an activity's cost, `energy.joules_per.<activity>`.
    public static func keyPath(_ activity: EnergyActivity) -> String { "energy.joules_per.\(activity.rawValue)" }

    /// The descriptors of every cost, in `EnergyActivity.allCases` order, so that scenarios can override them
    /// and `validate --explain` can show where each default comes from.
    public static let catalogue: [RuleParameter] = {
        func p(_ a: EnergyActivity, _ joules: Double, _ max: Double, _ summary: String, _ source: ParameterSource) -> RuleParameter {
            RuleParameter(keyPath(a), .number(0...max), default: .number(joules), summary, source: source)
        }
        return [
            p(.backgroundWake, 2.0, 100, "joules per background wake of the app (e.g. a BGAppRefresh task)",
              .assumption("about 1–2 s of CPU at roughly 1 W including the wake-up of the application processor and the process launch")),
            p(.monitorCallback, 0.5, 100, "joules per DeviceActivity monitor callback (extension launch, interval start/end or threshold)",
              .assumption("a short-lived, memory-capped app extension: about 0.3 s of CPU at roughly 1.5 W; the phone may be asleep, so the SoC wake is included")),
            p(.shieldRender, 0.3, 100, "joules per shield render over a blocked app",
              .assumption("the ShieldConfiguration extension and the system's render, about 0.2 s of CPU/GPU at roughly 1.5 W; the screen was already on for the app the person opened, so display power is not charged")),
            p(.databaseWrite, 0.05, 10, "joules per batch of database writes (the charter batches ledger writes every 60 s, §7.6)",
              .assumption("one SQLite transaction with fsync to flash: tens of milliseconds of CPU and storage at about 1 W")),
            p(.notification, 2.0, 100, "joules per local notification posted",
              .assumption("processing plus, when the phone is locked, a few seconds of lit lock screen (about 3–5 s at 0.4–0.6 W); an average over locked and unlocked phones")),
            p(.foregroundSecond, 1.2, 20, "joules per second of the app's own UI in the foreground (display share plus CPU/GPU), i.e. watts",
              .assumption("typical whole-phone draw in light interactive use on a modern iPhone, about 1–1.5 W; display and CPU dominate interactive power (Carroll & Heiser 2010, USENIX ATC, measured on an older phone)")),
            p(.cameraSecond, 2.5, 20, "joules per second of camera / AR scanning, i.e. watts",
              .assumption("image sensor, ISP and preview display together, about 2–3 W on current phones")),
            p(.speechSecond, 1.5, 20, "joules per second of speech recognition, i.e. watts",
              .assumption("microphone, on-device recogniser (Neural Engine/CPU) and a lit screen, about 1.5 W")),
            p(.networkRequest, 5.0, 100, "joules per network request, radio tail included",
              .assumption("for small requests the radio's tail dominates (Balasubramanian et al. 2009, IMC); an LTE tail is on the order of 1 W for ~10 s (Huang et al. 2012, MobiSys) while Wi-Fi costs well under 1 J; 5 J assumes about a third of requests on cellular")),
        ]
    }()
}
