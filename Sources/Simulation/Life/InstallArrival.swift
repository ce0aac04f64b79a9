/// When people install, for every product. (Population names — personas, their parameters, devices — are checked
/// inside scenario validation, against `Products.population`.)
public enum InstallArrival {
    /// Assumption without an acquisition curve: installs arrive uniformly over the first `installWindowDays` days of
    /// the horizon (at most a third of it). With a curve, on the day the curve gives (`AcquisitionCurve.installDays`).
    /// Either way at a waking hour between 08:00 and 22:00.
    public static let installWindowDays = 14
}
