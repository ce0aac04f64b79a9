import RulesCore

/// Quick actions, contacts and AI drafts. Seed 001 §4 Feature 6: Action Shortcuts, Feature 7: AI-Drafted Messages,
/// §6 API Contract: AI Draft Generation.
extension NudgeEngine {
    /// A card is shown: seed 001 §4 Feature 7 "When a card with an action type is shown in the One-Thing View, the AI
    /// generates a contextual draft in the background" — for 💬/📧 cards (📞 only with `drafts.for_call_cards`,
    /// inventory C10), Pro only, online only ("If offline, no draft"), one per card however often it is shown
    /// (inventory R35). The locked draft teaser — a paywall on a Free user's 💬/📧 card, once per card (inventory R40)
    /// — is not in the seed (§9 Week 4 Day 2 names the limits, §5 Screen 4 Settings): it is shown only under the
    /// assumption-option `paywall.draft_teasers_per_day` (default 0: never), at most that many a local day (audit N3).
    mutating func cardShown(_ id: ItemID, _ now: Instant, _ out: inout NudgeOutcome) {
        let k = Int(id) - 1
        guard let a = items[k].action, a.isMessage || (a == .call && parameters.draftsForCallCards) else { return }
        if isPro {
            guard online, !items[k].draftRequested else { return }
            items[k].draftRequested = true
            let usd = bookAI(.draft, now, &out)
            out.events.append(.draftGenerated(id, usd: usd, ref: items[k].ref))
        } else if a.isMessage && !items[k].teaserShown && teasersToday < parameters.draftTeasersPerDay {
            items[k].teaserShown = true
            teasersToday += 1
            showPaywall(.draftTeaser, &out)
        }
    }

    /// The card's action button (seed 001 §4 Feature 6): 🔗 opens the link; 📞/💬/📧 without a contact open the contact
    /// picker, asking the contacts permission the first time ("one-time permission request"); with a contact (or with
    /// contacts denied) they open the dialer / compose sheet / Mail, prefilled with the draft on Pro.
    mutating func actionTapped(_ id: ItemID, _ out: inout NudgeOutcome) {
        guard let i = item(id) else { out.decision = .refused(.notFound); return }
        guard i.status == .active else { out.decision = .refused(.notActive); return }
        guard let a = i.action else { out.decision = .refused(.noAction); return }
        out.events.append(.actionTapped(id, type: a, ref: i.ref))
        if a.needsContact && !i.hasContact {
            switch contactsPermission {
            case .unasked:
                pendingContactItem = id
                askPermission(.contacts, &out)
                out.decision = .needsPermission(.contacts)
                return
            case .granted:
                pendingContactItem = id
                out.effects.append(.contactPicker)
                out.decision = .contactPickerShown(id)
                return
            case .denied: break
            }
        }
        openAction(a, i, &out)
    }

    /// Seed 001 §4 Feature 6 "Users can also manually add a phone number or contact name to any card": the card gets
    /// the 📞/💬/📧 action the person adds, with its contact (no picker needed). This is the only way a typed or
    /// single-item card gets a call/text/email action: "When AI splits a brain dump, it detects actionable items"
    /// (audit N13). 🔗 is not added by hand (shared URLs get it: "Shared URLs auto-get the 🔗 action").
    mutating func addContact(_ id: ItemID, _ a: ActionType, _ out: inout NudgeOutcome) {
        guard let k = openItem(id, &out) else { return }
        guard a.needsContact else { out.decision = .refused(.noAction); return }
        items[k].action = a
        items[k].hasContact = true
        out.events.append(.contactAttached(id, ref: items[k].ref))
        out.effects.append(.databaseWrite)
        out.decision = .updated
    }

    /// "Once selected, the number is saved to the card for next time" (seed 001 §4 Feature 6), then the action opens.
    mutating func contactPicked(_ id: ItemID, _ out: inout NudgeOutcome) {
        guard let i = item(id) else { out.decision = .refused(.notFound); return }
        if pendingContactItem == id { pendingContactItem = nil }
        items[Int(id) - 1].hasContact = true
        out.events.append(.contactAttached(id, ref: i.ref))
        out.effects.append(.databaseWrite)
        if let a = i.action, i.status == .active { openAction(a, items[Int(id) - 1], &out) } else { out.decision = .updated }
    }

    /// Opens the native app of an action; a message is prefilled when a Pro draft exists ("tap action button to send
    /// with draft pre-filled", seed 001 §5 Screen 1), else blank compose (§4 Feature 7 Free tier).
    mutating func openAction(_ a: ActionType, _ i: NudgeItem, _ out: inout NudgeOutcome) {
        out.effects.append(.openURL(a))
        out.decision = .actionOpened(a, draft: isPro && i.draftRequested)
    }

    /// A Pro draft sent, as drafted or edited (seed 001 §4 Feature 7 "User reviews and taps Send"; never auto-sent).
    /// The item is not done by it: the person swipes Done (seed 001 §5 Screen 1).
    mutating func draftSent(_ id: ItemID, _ edited: Bool, _ out: inout NudgeOutcome) {
        guard let i = item(id) else { out.decision = .refused(.notFound); return }
        guard i.draftRequested else { out.decision = .refused(.noDraft); return }
        out.events.append(.draftSent(id, edited: edited, ref: i.ref))
        out.decision = .updated
    }

    mutating func draftAbandoned(_ id: ItemID, _ out: inout NudgeOutcome) {
        guard let i = item(id) else { out.decision = .refused(.notFound); return }
        guard i.draftRequested else { out.decision = .refused(.noDraft); return }
        out.events.append(.draftAbandoned(id, ref: i.ref))
        out.decision = .updated
    }
}
