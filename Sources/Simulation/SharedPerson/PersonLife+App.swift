import Behavior

/// The person side every product with an app shares (issue 42 item 3).
extension PersonLife {
    /// Whether the person opens the product's app on `cue` (the engagement habit, `EngagementModel.appOpenProbability`):
    /// never while dormant; otherwise one draw from `sessions`.
    ///
    /// The probability is at most the scale: most draws are decided before the probability is computed. The scale
    /// (`engagement.app_open_per_pickup_scale`, an assumption): the engagement model's cue probabilities are per cue
    /// episode; a pickup is a fraction of one. Tuned so that the default population's day-1 activity lands near
    /// published install-cohort figures (Adjust 2023: D1 ≈ 25 % for ordinary apps).
    public mutating func opensAppOnCue(_ cue: AppOpenCue) -> Bool {
        guard !dormant else { return false }
        let scale = world.appOpenPerPickupScale
        let u = sessions.uniform()
        return u < scale && u < engagement.appOpenProbability(cue: cue) * scale
    }
}
