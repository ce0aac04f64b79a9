import RulesCore

/// Lazuri's analytics events. The thesis logs none (§6.2.2: "I will not be observing or monitoring your usage"); the
/// names are the inventory's §3 proposal, snake_case.
public enum LazuriEvent: Hashable, Sendable, AnalyticsEvent {
    // Lifecycle and permissions
    /// `day` = local days since the install's date.
    case appOpened(day: Int)
    case permissionRequested(PermissionKind)
    case screenTimePermissionResult(granted: Bool)
    case screenTimeRevoked
    case notificationPermissionResult(granted: Bool)
    case gameCenterAuthResult(signedIn: Bool)
    // Selection
    case selectionUpdated(apps: Int, categories: Int, domains: Int)
    case selectionEditBlocked
    // Schedules
    case scheduleCreated(ScheduleID, durationMinutes: Int, crossesMidnight: Bool, days: WeekdaySet)
    case scheduleRejected(reason: LazuriRefusal)
    case scheduleEnabled(ScheduleID)
    case scheduleEdited(ScheduleID, durationMinutes: Int)
    case scheduleDisabled(ScheduleID, duringWindow: Bool)
    case scheduleDeleted(ScheduleID, duringWindow: Bool)
    // Windows and focus time
    case blockStarted(ScheduleID)
    /// `minutes` credited (0 when interrupted).
    case blockEnded(ScheduleID, outcome: BlockEnd, minutes: Int)
    case focusSessionRecorded(minutes: Int, total: Int)
    case focusSessionDuplicateDropped
    // Shield
    /// A blocked attempt.
    case shieldShown(BlockTarget, hasPromise: Bool)
    case promiseKeptPressed(BlockTarget)
    case shieldLeftWithoutAction(BlockTarget)
    /// `defaultText`: no promise was set, the body is "Stay focused on your goals!".
    case noteToSelfSent(defaultText: Bool)
    // Notifications
    case windowStartNotified(ScheduleID)
    case windowEndNotified(ScheduleID)
    // Learn
    case cardViewed(CardID, isNew: Bool, uniqueTotal: Int)
    case cardShared(CardID)
    case cardLinkOpened(CardID)
    case categoryFilterChanged(CardCategory?)
    // Compete
    case achievementUnlocked(threshold: Int, points: Int)
    case leaderboardScoreSubmitted(score: Int)
    case gameCenterViewOpened(GameCenterView)
    case promiseSaved(length: Int, truncated: Bool, firstTime: Bool)

    public var name: String {
        switch self {
        case .appOpened: "app_opened"
        case .permissionRequested: "permission_requested"
        case .screenTimePermissionResult: "screentime_permission_result"
        case .screenTimeRevoked: "screentime_revoked"
        case .notificationPermissionResult: "notification_permission_result"
        case .gameCenterAuthResult: "gamecenter_auth_result"
        case .selectionUpdated: "selection_updated"
        case .selectionEditBlocked: "selection_edit_blocked"
        case .scheduleCreated: "schedule_created"
        case .scheduleRejected: "schedule_rejected"
        case .scheduleEnabled: "schedule_enabled"
        case .scheduleEdited: "schedule_edited"
        case .scheduleDisabled: "schedule_disabled"
        case .scheduleDeleted: "schedule_deleted"
        case .blockStarted: "block_started"
        case .blockEnded: "block_ended"
        case .focusSessionRecorded: "focus_session_recorded"
        case .focusSessionDuplicateDropped: "focus_session_duplicate_dropped"
        case .shieldShown: "shield_shown"
        case .promiseKeptPressed: "promise_kept_pressed"
        case .shieldLeftWithoutAction: "shield_left_without_action"
        case .noteToSelfSent: "note_to_self_sent"
        case .windowStartNotified: "window_start_notified"
        case .windowEndNotified: "window_end_notified"
        case .cardViewed: "card_viewed"
        case .cardShared: "card_shared"
        case .cardLinkOpened: "card_link_opened"
        case .categoryFilterChanged: "category_filter_changed"
        case .achievementUnlocked: "achievement_unlocked"
        case .leaderboardScoreSubmitted: "leaderboard_score_submitted"
        case .gameCenterViewOpened: "gamecenter_view_opened"
        case .promiseSaved: "promise_saved"
        }
    }

    public var fields: [(String, String)] {
        switch self {
        case .appOpened(let d): [("day", "\(d)")]
        case .permissionRequested(let k): [("kind", k.rawValue)]
        case .screenTimePermissionResult(let g), .notificationPermissionResult(let g): [("granted", "\(g)")]
        case .gameCenterAuthResult(let s): [("signed_in", "\(s)")]
        case let .selectionUpdated(a, c, d): [("n_apps", "\(a)"), ("n_categories", "\(c)"), ("n_domains", "\(d)")]
        case let .scheduleCreated(id, m, x, days):
            [("schedule", "\(id)"), ("duration_min", "\(m)"), ("crosses_midnight", "\(x)"), ("days", days.description)]
        case .scheduleRejected(let r): [("reason", r.rawValue)]
        case .scheduleEnabled(let id), .blockStarted(let id), .windowStartNotified(let id), .windowEndNotified(let id):
            [("schedule", "\(id)")]
        case let .scheduleEdited(id, m): [("schedule", "\(id)"), ("duration_min", "\(m)")]
        case let .scheduleDisabled(id, w), let .scheduleDeleted(id, w): [("schedule", "\(id)"), ("during_window", "\(w)")]
        case let .blockEnded(id, o, m): [("schedule", "\(id)"), ("outcome", o.rawValue), ("minutes", "\(m)")]
        case let .focusSessionRecorded(m, t): [("minutes", "\(m)"), ("total", "\(t)")]
        case let .shieldShown(k, p): [("target_kind", k.rawValue), ("has_promise", "\(p)")]
        case .promiseKeptPressed(let k), .shieldLeftWithoutAction(let k): [("target_kind", k.rawValue)]
        case .noteToSelfSent(let d): [("default_text", "\(d)")]
        case let .cardViewed(id, n, u): [("card_id", "\(id)"), ("is_new", "\(n)"), ("unique_total", "\(u)")]
        case .cardShared(let id), .cardLinkOpened(let id): [("card_id", "\(id)")]
        case .categoryFilterChanged(let c): [("category", c?.rawValue ?? "all")]
        case let .achievementUnlocked(t, p): [("id", "com.emrekulaber.lazuri.cards\(t)"), ("threshold", "\(t)"), ("points", "\(p)")]
        case .leaderboardScoreSubmitted(let s): [("score", "\(s)")]
        case .gameCenterViewOpened(let v): [("kind", v.rawValue)]
        case let .promiseSaved(l, t, f): [("length", "\(l)"), ("truncated", "\(t)"), ("first_time", "\(f)")]
        case .screenTimeRevoked, .selectionEditBlocked, .focusSessionDuplicateDropped: []
        }
    }
}
