import Simulation

extension ScrollOffAdapter {
    /// The scenario `habitat run` runs without a file (`make run`): Scroll Off with the charter's rules, for 10,000
    /// people over 90 days — a product team's first look. Its population is every product's: `bench run --product`
    /// runs it for another product without the `rules:` block.
    public static var defaultScenario: String? {
        """
        name: scroll-off-baseline
        product: scroll-off
        seed: 20261122
        start: 2026-01-05
        horizon_days: 90
        replications: 3
        population:
          installs: 10000
          personas:
            - name: student
              share: 0.35
            - name: worker
              share: 0.35
            - name: late-night-scroller
              share: 0.2
            - name: adhd-adult
              share: 0.1
          devices:
            - model: iphone-se-3
              share: 0.15
            - model: iphone-12
              share: 0.2
            - model: iphone-13
              share: 0.25
            - model: iphone-14
              share: 0.2
            - model: iphone-15
              share: 0.2
          time_zones:
            - zone: America/New_York
              share: 0.4
            - zone: America/Los_Angeles
              share: 0.25
            - zone: Europe/London
              share: 0.2
            - zone: Europe/Berlin
              share: 0.15
        rules:
          bypass:
            mindfulness_enabled_by_default: true
            free_peek_at_zero_credits: false
          tokens:
            included_count_toward_cap: true
          milestones:
            streak_day_rule: willpower_win_no_token

        """
    }
}
