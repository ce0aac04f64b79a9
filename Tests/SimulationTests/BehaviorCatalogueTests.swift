import EarnedAccessLife
import Foundation
import NudgeLife
import ProductRegistry
import RulesCore
import ScrollOffLife
import Stochastics
import Testing
@testable import Behavior

/// Issue 14: every behaviour constant is a parameter. Its default is the literal the model used before (its
/// component value, still the model's own `init()`), except the keys the end-to-end fit set
/// (`BehaviorCatalogue.fittedDefaults`, committed with their provenance in `Calibration/default-fit`). Since issue 42 the
/// catalogue is the generic one with each product's own parameters (`Products.behaviorParameters`), so these tests live
/// where the products are.
@Suite("Behaviour catalogue")
struct BehaviorCatalogueTests {
    /// The literals of the models before they became parameters (their component values). A changed default fails
    /// here: change it only with re-recorded baselines.
    static let formerLiterals: [String: Double] = [
        "churn.base_hazard": 0.08, "churn.frustration_weight": 2.5, "churn.value_weight": 3.0, "churn.engagement_weight": 1.5,
        "churn.split.uninstall": 0.35, "churn.split.revoke_access": 0.15, "churn.split.dormant": 0.5, "churn.paying_hazard_ratio": 0.5,
        "engagement.frustration_daily_retention": 0.8, "engagement.value_daily_retention": 0.93,
        "engagement.novelty_start": 0.3, "engagement.novelty_daily_retention": 0.93, "retention.trying_share": 0.0, "retention.trying_daily_drop": 0.6,
        "engagement.app_open_habit_gain": 0.05, "engagement.app_open_habit_daily_retention": 0.97,
        "engagement.frustration.shield_refused": 0.04, "engagement.frustration.wallet_empty": 0.08,
        "engagement.frustration.paywall_hit": 0.10, "engagement.frustration.detour": 0.0636, "engagement.value.earned_credit": 0.01, "engagement.value.resisted_urge": 0.03,
        "engagement.value.per_minute_saved": 0.002, "engagement.value.minutes_saved_cap": 0.2,
        "engagement.cue.none": 0.05, "engagement.cue.notification": 0.6,
        "engagement.cue.after_shield": 0.3, "engagement.app_open_per_pickup_scale": 0.05, "engagement.insight_view_probability": 0.15,
        "onboarding.completion.informational": 0.97, "onboarding.completion.permission": 0.80,
        "onboarding.completion.configuration": 0.90, "onboarding.completion.payment": 0.25,
        "purchase.buy_constant": -2.8, "purchase.surplus_weight": 2.0, "purchase.discount_weight": 1.2,
        "purchase.annual_constant": -0.8, "purchase.annual_value_weight": 1.0, "purchase.tier_weight": 1.0,
        "purchase.tier_scale_usd": 5.0, "purchase.upgrade_constant": -2.0, "purchase.reason_boost.usage_cap_reached": 0.5,
        "purchase.reason_boost.tier_limit": 0.3, "purchase.renew_intercept": log(0.56 / 0.44),
        "purchase.trial_intercept": log(0.36 / 0.64), "purchase.loyalty_boost": 0.8, "purchase.renew_value_weight": 3.0,
        "purchase.renew_price_weight": 1.0, "purchase.token_constant": -2.0, "purchase.token_urge_weight": 3.0,
        "refund.value_weight": 3.0,
        "shield.urge_weight": 3.0, "shield.habit_weight": 1.0, "shield.efficacy_weight": 2.0, "shield.resist_weight": 1.5,
        "shield.price_weight": 1.5, "shield.scarcity_weight": 1.0, "shield.friction_weight": 0.6, "shield.frustration_weight": 3.0,
        "shield.habit_deliberation_cut": 0.5, "shield.mindfulness_effect": 1.0, "shield.mindfulness_constant": -0.8,
        "shield.give_up_constant": -4.0, "shield.temperature": 1.0, "shield.plan_effect_max": 0.65 * Double.pi / 3.0.squareRoot(),
        "shield.plan_effect_decay": 0.5, "shield.constant.peek": 0.2, "shield.constant.use_token": -0.5,
        "shield.constant.buy_token": -0.8, "shield.constant.unblock": -1.5, "shield.fulfilment.peek": 0.6,
        "shield.fulfilment.unblock": 1.1,
        // Issue 15 (Earned Access): the gate's quest and emergency, the redirect step, waiting for a block's end,
        // focus sessions and habit check-ins.
        "shield.constant.quest": -0.3, "shield.constant.emergency": -1.0, "shield.redirect_step_seconds": 20,
        "shield.wait_for_end_minutes": 10,
        "shield.walk_away_share": 0.2,
        "onboarding.strict_block_share": 0.15, "onboarding.hard_block_share": 0.05,
        "focus.sessions_per_day": 0.8, "focus.value_weight": 1.5, "focus.median_minutes": 25, "focus.minutes_sigma": 0.45,
        "focus.min_minutes": 10, "focus.max_minutes": 90, "focus.window_start_hour": 9, "focus.window_end_hour": 21,
        "focus.completion_intercept": log(0.75 / 0.25), "focus.completion_efficacy_weight": 2.0, "focus.completion_length_weight": 0.5,
        "purchase.trial_start_boost": 8.0,
        "habits.mean_count": 1.5, "habits.max_count": 3, "habits.daily_intercept": log(0.6 / 0.4), "habits.value_weight": 2.0,
        // Issue 43: Lazuri's people (the promise, its wear-out, schedules by persona, cards; new parameters: their
        // defaults are their component values).
        "lazuri.promise_effect": 0.59, "lazuri.promise_half_life_shields": 14, "lazuri.break_constant": -1.5,
        "lazuri.break_friction_seconds": 20, "lazuri.break_delete_share": 0.2, "lazuri.break_revoke_share": 0.05,
        "lazuri.shield_frustration": 0.01, "lazuri.resume_probability": 0.5, "lazuri.onboarding.no_tutorial_completion": 0.85,
        "lazuri.schedule.evening_share": 0.3, "lazuri.schedule.work_start_hour": 9, "lazuri.schedule.work_end_hour": 17,
        "lazuri.schedule.school_start_hour": 9, "lazuri.schedule.school_end_hour": 15, "lazuri.schedule.evening_start_hour": 19,
        "lazuri.schedule.evening_end_hour": 23, "lazuri.open_share": 1, "lazuri.visit.read_cards_share": 0.6,
        "lazuri.visit.minutes_share": 0.2, "lazuri.visit.rank_share": 0.1, "lazuri.cards_per_visit": 4, "lazuri.card_seconds": 15,
        "lazuri.value.new_card": 0.01, "lazuri.value.focus_minutes": 0.02, "lazuri.promise_write_probability": 0.4,
        "lazuri.promise_rewrite_probability": 0.1, "lazuri.promise_median_characters": 120, "lazuri.promise_at_setup_probability": 0,
        // Issue 26: people who change (urges, letting go, dormant people's day, inertia, a trial's value, the plans).
        "shield.notice_seconds": 5, "urges.intended_floor": 0.5, "urges.habit_residual_share": 0.3, "urges.reflection_seconds": 20,
        "urges.intended_let_go_factor": 0.25, "dormant.leave_constant": -2.5, "dormant.frustration_weight": 3.0,
        "dormant.shields_weight": 0.5, "dormant.value_weight": 3.0, "dormant.come_back_constant": -6.0, "dormant.uninstall_share": 0.5,
        "purchase.inertia": 0.3, "purchase.integration_weight": 1.0, "purchase.cancel_at_trial_start": 0.3, "engagement.plans_view_probability": 0.05,
        // Issue 29: things to do by the person's own means, what people do with a task-capture tool, and the value
        // and frustration it brings (new parameters: their defaults are their component values).
        "tasks.delay_mean_hours": 10, "tasks.effort_exponent": 0.5, "tasks.procrastination_weight": 2.0, "tasks.efficacy_weight": 1.0,
        "tasks.queue_weight": 0.05, "tasks.efficacy_gain": 0.02, "tasks.efficacy_loss": 0.02,
        "engagement.value.task_done": 0.03, "engagement.frustration.limit_hit": 0.08,
        "capture.constant": -0.4, "capture.value_weight": 2.0, "capture.habit_weight": 2.0, "capture.urgency_weight": 0.8,
        "capture.typed_share": 0.15, "capture.dump_memory_hours": 2.0, "capture.allow_microphone": 0.85, "capture.allow_notifications": 0.6,
        "capture.allow_contacts": 0.7, "capture.live_activity_opt_in": 0.12, "capture.online_share": 0.97, "capture.split_failure": 0.02,
        "card.do_constant": -0.3, "card.effort_weight": 0.8, "card.urgency_weight": 1.5, "card.efficacy_weight": 1.5, "card.overdue_boost": 0.5,
        "card.snooze_share": 0.55, "card.continue_probability": 0.55, "card.mark_done_already_done": 0.8, "card.draft_send_as_is": 0.55,
        "card.draft_edit": 0.3, "reminder.seen_mean_minutes": 25, "reminder.act_constant": -0.9, "reminder.value_weight": 1.5,
        "reminder.urgency_weight": 1.0, "reminder.button_share": 0.5, "reminder.mute_today_per_ignored": 0.01,
        "reminder.notifications_off_per_ignored": 0.004,
        // Issue 38: dump length, empty dumps, Settings → Upgrade, turning a nudge type off.
        "capture.ramble_median": 1.6, "capture.ramble_sigma": 0.6, "capture.empty_dump": 0.03, "card.settings_upgrade": 0.05,
        // Issue 39: a session ends when the person puts the phone down, and the next pickup follows that end.
        "urges.pickup_follows_actual_session": 1,
        "card.settings_upgrade_floor": 0.3,
        "reminder.type_off_per_ignored": 0.02,
        // Issue 44: Clavis's own (its person side and its frame model).
        "clavis.focus_leak_probability": 0.05, "clavis.unlock_at_home_constant": -0.5,
        "clavis.unlock_friction_seconds": 20, "clavis.go_home_constant": -1.5, "clavis.travel_minutes": 25,
        "clavis.temporary_constant": -0.5, "clavis.temporary_friction_seconds": 15,
        "clavis.temporary_end_early_probability": 0.3, "clavis.focus_off_constant": -2.5,
        "clavis.focus_off_friction_seconds": 10, "clavis.reset_constant": -4, "clavis.reset_friction_seconds": 60,
        "clavis.replace_constant": -3.5, "clavis.replace_friction_seconds": 90, "clavis.look_alike_constant": -3,
        "clavis.look_alike_friction_seconds": 20, "clavis.lock_frustration": 0.01,
        "clavis.object.distinctiveness_mean": 0.6, "clavis.onboarding.enrol_completion": 0.85,
        "clavis.onboarding.focus_setup_success": 0.7, "clavis.temporary_key_share": 0.4,
        "clavis.temporary_key_carried_share": 0.6, "clavis.enrolment.seconds_per_frame": 4,
        "clavis.enrolment_frustration": 0.02, "clavis.lock.leaving_probability": 0.6, "clavis.lock.on_open_probability": 0.2,
        "clavis.lock.bedtime_probability": 0.4, "clavis.unlock.arrival_probability": 0.8,
        "clavis.unlock.morning_probability": 0.85, "clavis.bedtime_dark_share": 0.2,
        "clavis.value.locked_cycle": 0.03, "clavis.scan.patience_seconds": 12, "clavis.scan.retry_probability": 0.6,
        "clavis.scan.max_retries": 2, "clavis.scan.light_on_probability": 0.5,
        "clavis.scan.failure_frustration": 0.03, "clavis.frames.reject_bright": 0.05,
        "clavis.frames.reject_indoor": 0.10, "clavis.frames.reject_dim": 0.35, "clavis.frames.reject_dark": 0.90,
        "clavis.frames.rho": 0.7, "clavis.frames.genuine_mean": 0.93, "clavis.frames.genuine_sd": 0.03,
        "clavis.frames.poor_light_sd": 0.04, "clavis.frames.dim_penalty": 0.02, "clavis.frames.dark_penalty": 0.04,
        "clavis.frames.off_viewpoint_penalty": 0.03, "clavis.frames.low_distinctiveness_penalty": 0.04,
        "clavis.frames.low_distinctiveness_below": 0.3, "clavis.frames.roi_bonus": 0.01,
        "clavis.frames.impostor_base": 0.75, "clavis.frames.impostor_span": 0.15, "clavis.frames.impostor_sd": 0.04,
        "clavis.frames.impostor_template_vectors": 3, "clavis.frames.fps": 8,
        "clavis.frames.positioning_median_seconds": 2, "clavis.frames.positioning_sigma": 0.5,
        // Issue 39: what using a task tool costs (new parameters, on by default; each off at 0).
        "attention.card_seconds": 10, "attention.capture_seconds": 15, "attention.reminder_seconds": 20,
        "attention.resumption_lag_seconds": 3.8, "reminder.cued_urge_scale": 1.0, "reminder.fatigue_per_ignored": 0.357,
    ]

    @Test func defaultsAreTheFittedValuesElseTheFormerLiteralsExactly() {
        let catalogue = Products.behaviorParameters
        #expect(Set(catalogue.map(\.keyPath)) == Set(Self.formerLiterals.keys))
        #expect(catalogue.count == Set(catalogue.map(\.keyPath)).count, "keys are unique")
        #expect(Set(BehaviorCatalogue.fittedDefaults.keys).isSubset(of: Set(Self.formerLiterals.keys)))
        for p in catalogue {
            #expect(p.defaultValue.doubleValue == (BehaviorCatalogue.fittedDefaults[p.keyPath] ?? Self.formerLiterals[p.keyPath]), "\(p.keyPath)")
            #expect(p.problem(with: p.defaultValue) == nil, "\(p.keyPath): the default is inside its range")
            guard case .number(let r) = p.kind else { Issue.record("\(p.keyPath) is not a number"); continue }
            #expect(r.upperBound > r.lowerBound, "\(p.keyPath): a range a fit can move in")
            #expect(!p.summary.isEmpty, "\(p.keyPath) has a description")
            #expect(p.keyPath.split(separator: ".").count >= 2, "\(p.keyPath) is grouped")
        }
    }

    @Test func modelsBuiltFromTheComponentValuesEqualTheOldModels() {
        let d = BehaviorValues(Self.formerLiterals, catalogue: Products.behaviorParameters)
        #expect(ShieldChoiceModel(values: d) == ShieldChoiceModel())
        #expect(PurchaseModel(values: d) == PurchaseModel())
        #expect(EngagementModel(values: d) == EngagementModel())
        let person = Person.draw(persona: PersonaCatalog.general, id: 3, seed: 7, replication: 0)
        #expect(EngagementModel(values: d).starting(person: person) == EngagementModel(person: person))
        let onboarding = OnboardingModel(values: d)
        for kind in OnboardingStepKind.allCases {
            #expect(onboarding.baseCompletion(kind) == kind.baseCompletion)
            #expect(onboarding.completionProbability(kind, techComfort: 0.8) == EngagementModel.onboardingCompletionProbability(kind, techComfort: 0.8))
        }
        // The old per-option literals behind the switch statements, now Scroll Off's and Earned Access's constants.
        let so = ScrollOffConstants(values: d), ea = EarnedAccessConstants(values: d), nudge = NudgeConstants(values: d)
        #expect(so.peek == .open(fulfilment: 0.6, constant: 0.2) && so.useToken == .open(fulfilment: 1, constant: -0.5))
        #expect(so.buyToken == .open(fulfilment: 1, constant: -0.8) && so.unblock == .open(fulfilment: 1.1, constant: -1.5))
        #expect(ea.quest == .open(fulfilment: 1, constant: -0.3) && ea.emergency == .open(fulfilment: 1, constant: -1.0))
        #expect(ea.redirectStepSeconds == 20 && ea.waitForEndMinutes == 10)
        #expect(so.walletEmptyFrustration == 0.08 && so.earnedCreditValue == 0.01 && ea.earnedCreditValue == 0.01 && ea.detourFrustration == 0.0636)
        #expect(nudge.taskDoneValue == 0.03 && nudge.limitHitFrustration == 0.08)
        #expect(PurchaseModel(values: d).reasonBoost(.usageCapReached) == 0.5 && PurchaseModel(values: d).reasonBoost(.tierLimit) == 0.3)
        #expect(EngagementModel(values: d).appOpenProbability(cue: .afterShield) == EngagementModel().appOpenProbability(cue: .afterShield))
        #expect(ea.focus == FocusSessionModel())
        #expect(ea.habits == HabitCheckInModel())
        #expect(nudge.taskTool == TaskToolModel())
    }

    /// `fitted-behavior.yaml` as `habitat calibrate` writes it: a nested `behavior:` block, two spaces a level.
    static func fittedOverlay(_ folder: String) throws -> [String: Double] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Calibration/\(folder)/fitted-behavior.yaml")
        var values: [String: Double] = [:], path: [String] = []
        var inBlock = false
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            if line == "behavior:" { inBlock = true; continue }
            guard inBlock else { continue }
            let depth = line.prefix { $0 == " " }.count / 2
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            path = Array(path.prefix(depth - 1)) + [parts[0]]
            if parts.count == 2, !parts[1].isEmpty, let v = Double(parts[1]) { values[path.joined(separator: ".")] = v }
        }
        return values
    }

    @Test("the fitted defaults are the committed fits' values, every one (Calibration/: issue 14's stage 4 and last stage, then issue 39's joint fit of three products over them)")
    func fittedDefaultsAreTheCommittedFit() throws {
        let last = try Self.fittedOverlay("default-fit")
        #expect(Array(last.keys) == ["purchase.renew_intercept"])
        // Issue 39's last block holds every value of the fit: block A's best (given to it) and its own fitted ones.
        let money = try Self.fittedOverlay("why-people-stay/money")
        let retention = try Self.fittedOverlay("why-people-stay/retention-2")
        #expect(money.count == 16 && retention.count == 10)
        for (key, value) in retention where key != "dormant.leave_constant" {
            // Block B ran from block A's best, rounded to 4 significant digits in fit.sh.
            #expect(abs(money[key]! - value) <= 5e-4 * abs(value), "\(key): block A \(value), given to block B \(money[key]!)")
        }
        // Keys no target pins keep their component value (issue 39): they are back at their literal, so no fitted default.
        for key in ["dormant.leave_constant", "purchase.inertia", "refund.value_weight"] {
            #expect((money[key] ?? Self.formerLiterals[key]) == Self.formerLiterals[key], "\(key)")
        }
        for key in ["dormant.leave_constant", "purchase.inertia", "refund.value_weight", "purchase.cancel_at_trial_start"] {
            #expect(BehaviorCatalogue.fittedDefaults[key] == nil, "\(key) is pinned by no target: its literature value")
        }
        let overlay = try Self.fittedOverlay("stages/stage-4").merging(last) { _, new in new }
            .merging(money) { _, new in new }.filter { Self.formerLiterals[$0.key] != $0.value }
        #expect(overlay == BehaviorCatalogue.fittedDefaults)
        let defaults = Dictionary(uniqueKeysWithValues: Products.behaviorParameters.map { ($0.keyPath, $0.defaultValue.doubleValue) })
        for (key, value) in overlay { #expect(defaults[key] == value, "\(key)") }
    }

    @Test("a fitted default says which fit set it; a key no fit set keeps its literature source")
    func fittedProvenance() {
        let byKey = Dictionary(uniqueKeysWithValues: Products.behaviorParameters.map { ($0.keyPath, $0) })
        #expect("\(byKey["churn.base_hazard"]!.source)".contains("issue 39"))
        // Fitted keys a product declares in its own folder keep their fitted default and source (issue 42).
        #expect("\(byKey["shield.constant.buy_token"]!.source)".contains("issue 14"))
        #expect("\(byKey["engagement.plans_view_probability"]!.source)".contains("issue 39"))
        #expect("\(byKey["engagement.frustration.detour"]!.source)".contains("issue 39"))
        #expect(ScrollOffProduct.behaviorParameters.contains { $0.keyPath == "engagement.plans_view_probability" })
        #expect(!"\(byKey["purchase.inertia"]!.source)".contains("fitted"))
        #expect(!"\(byKey["purchase.cancel_at_trial_start"]!.source)".contains("fitted"))
        #expect(!"\(byKey["dormant.leave_constant"]!.source)".contains("fitted ("))
        #expect(Set(BehaviorCatalogue.fittedDefaults.keys) == Set(BehaviorCatalogue.fitOf.keys))
    }

    @Test func valuesReachTheModels() {
        var v = BehaviorValues()
        v["churn.base_hazard"] = 0.5
        v["shield.urge_weight"] = 7
        v["purchase.buy_constant"] = 1
        v["onboarding.completion.permission"] = 0.1
        v["engagement.cue.notification"] = 2
        #expect(EngagementModel(values: v).baseChurnHazard == 0.5)
        #expect(EngagementModel(values: v).churnHazardPerDay > EngagementModel().churnHazardPerDay)
        #expect(EngagementModel(values: v).appOpenProbability(cue: .notification) > EngagementModel().appOpenProbability(cue: .notification))
        #expect(ShieldChoiceModel(values: v).wUrge == 7)
        #expect(PurchaseModel(values: v).buyConstant == 1)
        #expect(OnboardingModel(values: v).completionProbability(.permission, techComfort: 0.5) == 0.1)
        // From a resolved scenario's values: unknown keys are ignored, integers read as numbers.
        let resolved = BehaviorValues(ParameterValues(["churn.base_hazard": .int(1), "not.a.key": .number(3)]))
        #expect(resolved["churn.base_hazard"] == 1)
        #expect(resolved.values.count == BehaviorCatalogue.parameters.count)
        #expect(BehaviorValues(["refund.value_weight": 4])["refund.value_weight"] == 4)
    }
}
