// Replaced by the adapter (issue 29).
import NudgeRules
