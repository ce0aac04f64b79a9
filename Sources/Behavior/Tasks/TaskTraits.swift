import Stochastics

/// A person's traits about things to do (persona parameters, drawn from the person's own `task-traits` stream so
/// that no earlier draw moves): how many arise, how often an uncaptured one is forgotten, how much they put off.
public struct TaskTraits: Hashable, Sendable {
    /// Things to do arising per day, over waking hours (`tasks_per_day`).
    public var tasksPerDay: Double
    /// Probability that a thing to do not written down anywhere is forgotten (`task_forgetting`).
    public var forgetting: Double
    /// 0…1: present bias — how much effortful things are put off (`procrastination`).
    public var procrastination: Double

    public init(tasksPerDay: Double = 6, forgetting: Double = 0.25, procrastination: Double = 0.35) {
        self.tasksPerDay = tasksPerDay
        self.forgetting = forgetting
        self.procrastination = procrastination
    }

    /// The stream the traits are drawn from (its own, so adding them moved no other draw).
    public static let stream = StreamName("task-traits")

    /// Draws the traits of a person of `persona` (fixed order; append new draws at the end).
    public static func draw(persona: Persona, rng: RandomStream) -> TaskTraits {
        TaskTraits(tasksPerDay: persona.draw(.tasksPerDay, rng),
                   forgetting: persona.draw(.taskForgetting, rng),
                   procrastination: persona.draw(.procrastination, rng))
    }
}
