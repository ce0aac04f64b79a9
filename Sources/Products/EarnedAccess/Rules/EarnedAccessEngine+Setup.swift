import RulesCore

/// Onboarding, Screen Time authorization, distracting apps and modes. Seed 003 §3 A) First run / onboarding, §4
/// "Distracting apps" definition, §5 Free / Pro limits and paywall triggers.
extension EarnedAccessEngine {
    /// Seed 003 §3 A) 1–6. Landing in Home finishes onboarding and may place the paywall (§9 Phase 3); under the hard
    /// paywall (`paywall.mode` hard, not in the seed) a person without the trial or Pro lands on the paywall instead,
    /// and the app locks (it takes the placed paywall's place).
    mutating func onboarding(_ s: AccessOnboardingStep, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        out.events.append(.onboardingStepCompleted(s))
        if s == .home {
            let first = !onboardingFinished
            onboardingFinished = true
            if hardPaywallLocks {
                if first { lockBehindHardPaywall(now, &out) }
                placementShown = true
                showHardPaywall(&out)
            } else {
                placePaywall(.afterOnboarding, &out)
            }
        }
    }

    /// Seed 003 §11 `requestScreenTimeAuthorization(): "granted"|"denied"`. Denied or revoked: nothing is enforced
    /// (inventory row 45, assumption) — the shield never shows and the apps stay unshielded.
    mutating func authorize(_ a: ScreenTimeAuthorization, _ out: inout EarnedAccessOutcome) {
        authorization = a
        out.events.append(.screenTimeAuthorization(a))
        out.decision = .authorizationRecorded
    }

    /// Whether an app's shield is enforced: authorization granted and the app on the list, within the plan's cap.
    public func isEnforced(_ a: AppID) -> Bool {
        authorization == .granted && apps.contains { $0.app == a && $0.kept }
    }

    /// Seed 003 §5 Free "Up to 3 distracting apps"; trigger "Adding the 4th distracting app" (hard gate).
    mutating func addApp(_ a: AppID, _ out: inout EarnedAccessOutcome) {
        guard !apps.contains(where: { $0.app == a }) else { out.decision = .alreadyAdded; return }
        guard apps.count < parameters.maxShieldedApps else { out.decision = .shieldLimitReached; return }
        if tier == .free && apps.count >= parameters.freeMaxApps { showPaywall(.fourthApp, &out); return }
        apps.append(TrackedApp(app: a, addedSeq: nextAppSeq, kept: true))
        nextAppSeq += 1
        out.events.append(.appSelected(a, count: apps.count))
        out.effects.append(.databaseWrite)
        out.decision = .appAdded
    }

    /// Seed 003 §4: the selection is managed in the native picker ("Manage selection"); removing keeps no history.
    mutating func removeApp(_ a: AppID, _ out: inout EarnedAccessOutcome) {
        guard let i = apps.firstIndex(where: { $0.app == a }) else { out.decision = .notFound; return }
        apps.remove(at: i)
        out.events.append(.appRemoved(a, count: apps.count))
        out.effects.append(.databaseWrite)
        out.decision = .appRemoved
    }

    /// Seed 003 §5 Trial downgrade behavior: "Prompt user to pick the 3 to keep". On Free, the chosen apps (at most
    /// the cap, from the list) are enforced and the others are kept in the list unenforced.
    mutating func keepApps(_ chosen: [AppID], _ out: inout EarnedAccessOutcome) {
        guard tier == .free else { out.decision = .ok; return }
        var unique: [AppID] = []
        for a in chosen where apps.contains(where: { $0.app == a }) && !unique.contains(a) { unique.append(a) }
        guard unique.count <= parameters.freeMaxApps else { out.decision = .tooManyApps; return }
        guard !unique.isEmpty else { out.decision = .notFound; return }
        for i in apps.indices { apps[i].kept = unique.contains(apps[i].app) }
        keepAppsPromptPending = false
        out.events.append(.appsKept(count: unique.count))
        out.effects.append(.databaseWrite)
        out.decision = .appsKept
    }

    /// A schedule must last at least `modes.schedule_min_minutes` (DeviceActivity's minimum; inventory row 32).
    func scheduleValid(_ w: DailyWindow) -> Bool {
        !w.days.isEmpty && w.nominalLength >= .minutes(Int64(parameters.scheduleMinMinutes))
    }

    /// Seed 003 §3 A) 4 "Create first mode (template: Work/Study/Sleep)"; §5 Free "1 Mode (single schedule)", triggers
    /// "Creating a 2nd mode" and "Enabling Strict or Hard mode" (hard gates).
    mutating func createMode(_ s: ModeSpec, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard scheduleValid(s.window) else { out.decision = .scheduleTooShort; return }
        if tier == .free && modes.count >= parameters.freeMaxModes { showPaywall(.secondMode, &out); return }
        if tier == .free && s.strictness != .standard { showPaywall(.strictness, &out); return }
        if let r = proControlsRefusal(s) { out.decision = r; return }
        let id = nextModeID
        nextModeID &+= 1
        modes.append(AccessMode(id: id, spec: s, updatedAt: now, locked: false, running: false, armedEdge: nil))
        out.events.append(.modeCreated(id, s.template, s.strictness))
        out.effects.append(.databaseWrite)
        out.decision = .modeCreated
    }

    /// Seed 003 §5 Pro "Unlimited modes + schedules": an edit re-checks the schedule minimum and the Strict/Hard gate
    /// and counts as an update for the downgrade's tie-breaker; a locked mode cannot be edited (§5 "locked in UI").
    mutating func editMode(_ id: ModeID, _ s: ModeSpec, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let i = modes.firstIndex(where: { $0.id == id }) else { out.decision = .notFound; return }
        guard !modes[i].locked else { out.decision = .modeLocked; return }
        guard scheduleValid(s.window) else { out.decision = .scheduleTooShort; return }
        if tier == .free && s.strictness != .standard { showPaywall(.strictness, &out); return }
        if let r = proControlsRefusal(s) { out.decision = r; return }
        modes[i].spec = s
        modes[i].updatedAt = now
        modes[i].armedEdge = nil
        out.events.append(.modeEdited(id))
        out.effects.append(.databaseWrite)
        out.decision = .modeUpdated
    }

    /// Deleting a mode ends it at once (seed 003 §7 "Mode end → remove shield"); the user's data is theirs to delete.
    mutating func deleteMode(_ id: ModeID, _ out: inout EarnedAccessOutcome) {
        guard let i = modes.firstIndex(where: { $0.id == id }) else { out.decision = .notFound; return }
        if modes[i].running { out.events.append(.modeEnded(id)); out.effects.append(.monitorCallback) }
        modes.remove(at: i)
        out.events.append(.modeDeleted(id))
        out.effects.append(.databaseWrite)
        out.decision = .modeDeleted
    }

    /// Priority is the downgrade's ranking (higher wins; the field is an assumption, inventory row 14).
    mutating func setPriority(_ id: ModeID, _ p: Int, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let i = modes.firstIndex(where: { $0.id == id }) else { out.decision = .notFound; return }
        guard !modes[i].locked else { out.decision = .modeLocked; return }
        modes[i].spec.priority = p
        modes[i].updatedAt = now
        out.events.append(.priorityChanged(id, p))
        out.decision = .modeUpdated
    }

    /// Seed 003 §5 Pro "Strictness levels (Strict/Hard)"; trigger "Enabling Strict or Hard mode" on Free.
    mutating func setStrictness(_ id: ModeID, _ s: Strictness, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let i = modes.firstIndex(where: { $0.id == id }) else { out.decision = .notFound; return }
        guard !modes[i].locked else { out.decision = .modeLocked; return }
        if tier == .free && s != .standard { showPaywall(.strictness, &out); return }
        modes[i].spec.strictness = s
        modes[i].updatedAt = now
        out.events.append(.strictnessChanged(id, s))
        out.decision = .modeUpdated
    }
}
