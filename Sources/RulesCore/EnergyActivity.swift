/// The kinds of work an app makes a phone do, each charged through the energy model (docs/DESIGN.md, principle 7).
///
/// Rule engines report these as effects; the simulator's per-device energy model prices them.
public enum EnergyActivity: String, Sendable, CaseIterable, Hashable {
    /// The OS waking the app in the background (e.g. a scheduled task).
    case backgroundWake = "background_wake"
    /// A Screen Time / DeviceActivity monitor callback (interval start/end, threshold).
    case monitorCallback = "monitor_callback"
    /// Rendering a shield over a blocked app.
    case shieldRender = "shield_render"
    /// One batch of database writes.
    case databaseWrite = "database_write"
    /// Posting a local notification.
    case notification
    /// One second of the app's own UI in the foreground.
    case foregroundSecond = "foreground_second"
    /// One second of camera / AR scanning.
    case cameraSecond = "camera_second"
    /// One second of speech recognition.
    case speechSecond = "speech_second"
    /// One network request.
    case networkRequest = "network_request"
}

/// A quantity of an energy activity caused by a rule decision (e.g. one shield render, 45 foreground seconds).
public struct EnergyCharge: Hashable, Sendable {
    public var activity: EnergyActivity
    public var quantity: Double
    public init(_ activity: EnergyActivity, _ quantity: Double = 1) {
        self.activity = activity
        self.quantity = quantity
    }
}
