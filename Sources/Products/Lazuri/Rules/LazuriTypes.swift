import RulesCore

/// Identifies a saved blocking schedule. Assigned by the engine from 1, never reused.
public typealias ScheduleID = UInt16

/// Identifies a flashcard: its position in the whole deck, 0 ..< `cards.deck_size` (seed `002_80c8c6af1a4e5690.txt`
/// §5.3.1 `Flashcard {id, title, content, category, link?}`).
public typealias CardID = UInt16

/// The day templates of the Create Schedule view (§4.1.2.1 "Predefined Schedule Templates … "Weekdays" (Monday to
/// Friday) or "Weekends" (Saturday to Sunday)"; §4.2.2 "ready-made templates such as Weekdays, Weekends, and Every
/// Day, or the user can customise it by marking the days they want one by one").
public enum DayTemplate: String, Hashable, Sendable, CaseIterable {
    case weekdays, weekends, everyDay = "every_day"
    public var days: WeekdaySet {
        switch self {
        case .weekdays: .weekdays
        case .weekends: .weekend
        case .everyDay: .everyDay
        }
    }
}

/// What the person fills in to create or edit a schedule (§4.2.2 "the name of the schedule is given … The start and end
/// times of the blocking schedule are determined. The user can choose which days it will work"; §3.2 "Name each
/// schedule").
public struct ScheduleSpec: Hashable, Sendable {
    public var name: String
    public var start: LocalTimeOfDay
    public var end: LocalTimeOfDay
    /// A template's days or a custom set (§4.1.2.1, §4.2.2).
    public var days: WeekdaySet

    public init(name: String, start: LocalTimeOfDay, end: LocalTimeOfDay, days: WeekdaySet) {
        self.name = name
        self.start = start
        self.end = end
        self.days = days
    }

    public init(name: String, start: LocalTimeOfDay, end: LocalTimeOfDay, template: DayTemplate) {
        self.init(name: name, start: start, end: end, days: template.days)
    }

    /// The window's length in minutes by the thesis's own formula (§5.2, Figure 17 "Calculate actual duration
    /// considering midnight crossing": `if endMinutes <= startMinutes { duration = (24 * 60 - startMinutes) +
    /// endMinutes } else { duration = endMinutes - startMinutes }`): `start == end` is 1440.
    public var durationMinutes: Int {
        let s = start.hour * 60 + start.minute, e = end.hour * 60 + end.minute
        return e <= s ? (24 * 60 - s) + e : e - s
    }

    /// The window crosses midnight (§3.2 "Support crossing midnight (e.g., 23:00-04:00)"; the moon icon, §4.3).
    public var crossesMidnight: Bool { end <= start }
}

/// A saved schedule as the engine keeps it.
public struct LazuriSchedule: Hashable, Sendable {
    public let id: ScheduleID
    public internal(set) var spec: ScheduleSpec
    /// The toggle (§3.2 "enable/disable via toggle").
    public internal(set) var enabled: Bool
    /// The next window the schedule will block (enabled only; nil otherwise, or when no day is chosen).
    public internal(set) var nextWindow: Range<Instant>?
    /// The window blocking now: from when the shield went up to the window's end (nil: not blocking).
    public internal(set) var block: Range<Instant>?

    /// When the next window starts (`.distantFuture`: none).
    public var nextStart: Instant { nextWindow?.lowerBound ?? .distantFuture }
}

/// What a shield covers (§5.4.2 "the same shield for apps, categories and domains"; §5.4.3 the web-domain handler).
public enum BlockTarget: String, Hashable, Sendable, CaseIterable {
    case app, category, domain
}

/// The person's selection to block (§3.2 "Select individual apps, entire categories, and (optionally) web domains to
/// block. Show a live count"): one global selection shared by every schedule (§5.2 `FamilyActivitySelection`).
public struct BlockSelection: Hashable, Sendable {
    public var apps: Int
    public var categories: Int
    public var domains: Int
    public init(apps: Int = 0, categories: Int = 0, domains: Int = 0) {
        self.apps = apps
        self.categories = categories
        self.domains = domains
    }
    /// Whether the selection holds anything of a kind.
    public func covers(_ t: BlockTarget) -> Bool {
        switch t {
        case .app: apps > 0
        case .category: categories > 0
        case .domain: domains > 0
        }
    }
    public var isEmpty: Bool { apps <= 0 && categories <= 0 && domains <= 0 }
}

/// The app's three tabs (§4.2: Learn, Focus, Compete).
public enum LazuriTab: String, Hashable, Sendable, CaseIterable {
    case learn, focus, compete
}

/// The deck's categories (§4.1.3 "Anti-Addiction, Time Management"; "Test … will be removed" is not modelled).
/// Cards alternate between them (card `i` is in category `i % 2`: the inventory's 50/50 split, assumption).
public enum CardCategory: String, Hashable, Sendable, CaseIterable {
    case antiAddiction = "anti_addiction", timeManagement = "time_management"
    var index: Int { self == .antiAddiction ? 0 : 1 }
}

/// A swipe on a card (§4.1.3 "swipe left to see the next flashcard … swipe right to see the previous one. They can swipe
/// up to share"; §5.3.2).
public enum Swipe: String, Hashable, Sendable, CaseIterable {
    case next, previous, share
}

/// A permission's state (§5.2 `AuthorizationCenter` status: not determined, approved, denied).
public enum PermissionState: String, Hashable, Sendable {
    case notDetermined = "not_determined", granted, denied
}

/// The OS prompts Lazuri shows.
public enum PermissionKind: String, Hashable, Sendable, CaseIterable {
    case screenTime = "screen_time", notifications
}

/// Game Center's own views (§3.2 "Provide a simple dashboard, Leaderboards view, and achievements view").
public enum GameCenterView: String, Hashable, Sendable, CaseIterable {
    case dashboard, leaderboards, achievements
}

/// How a blocking window ended.
public enum BlockEnd: String, Hashable, Sendable {
    /// The window ran to its end (a focus session, §5.5.3).
    case completed
    /// The schedule was switched off or deleted, or Screen Time revoked, before the end: no minutes (inventory Q4).
    case interrupted
}

/// Why a schedule was switched off or removed (the `schedule_disabled` / `schedule_deleted` events' `during_window`).
public enum ScheduleChange: String, Hashable, Sendable {
    case disabled, deleted
}
