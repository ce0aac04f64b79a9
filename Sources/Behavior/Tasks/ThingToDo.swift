import RulesCore

/// What a thing to do asks of the person (seed 001 §2 "What's broken today?": calls, texts, emails, errands, links
/// to read): the kinds a task-capture product can act on (seed 001 §4 Feature 6, "📞 Call, 💬 Text, 🔗 Open Link").
public enum TaskKind: String, CaseIterable, Sendable, Hashable {
    case call, text, email, errand, read
}

/// One thing a person has to do, arising in their day whatever product they meet (or none): the occurrence of
/// `TaskProcess`. It carries its own draws for what the person does with it unaided (`recall`, `start`), so the same
/// task meets the same person under every product and every arm — only what a product adds differs (common random
/// numbers, docs/DESIGN.md principle 3).
public struct ThingToDo: Sendable, Hashable {
    /// The person's own number for it, 1, 2, … in order of arising (a product echoes it back: `Thought.ref`).
    public var ref: UInt64
    public var kind: TaskKind
    public var arisenAt: Instant
    /// Minutes of doing it (`tasks.effort_median_minutes.<kind>`).
    public var effortMinutes: Double
    /// 0…1: how much being late matters.
    public var urgency: Double
    /// When it is due: done after this, it is done late (`tasks.deadline_median_hours`).
    public var deadline: Instant
    /// Words the person would say or type about it (a brain dump of one short thought needs no AI split, seed 001
    /// §4 Feature 1 "Single item → create 1 card, no AI call needed").
    public var words: Int
    /// Uniform draw deciding whether the person, unaided, forgets it (below their forgetting probability).
    public var recall: Double
    /// Uniform draw deciding how long the person, unaided, puts it off (an exponential quantile).
    public var start: Double

    public init(ref: UInt64, kind: TaskKind, arisenAt: Instant, effortMinutes: Double, urgency: Double, deadline: Instant,
                words: Int, recall: Double, start: Double) {
        self.ref = ref
        self.kind = kind
        self.arisenAt = arisenAt
        self.effortMinutes = effortMinutes
        self.urgency = urgency
        self.deadline = deadline
        self.words = words
        self.recall = recall
        self.start = start
    }
}
