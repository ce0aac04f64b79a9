/// An app on the person's phone, as a small integer handle (the simulator's app catalogue index).
///
/// Engines never need bundle ids; `description` renders `app:N` for traces. `AppID.safari` stands for the
/// browser, shielded during a curfew whose "Block Safari" toggle is on (seed 000 §3.3, §7.4).
public struct AppID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    /// Safari (website enforcement during curfew).
    public static let safari = AppID(.max)
    @inlinable public static func < (a: AppID, b: AppID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { self == .safari ? "safari" : "app:\(rawValue)" }
}
