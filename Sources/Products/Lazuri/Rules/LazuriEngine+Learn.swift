import RulesCore

/// Flashcards, achievements, the leaderboard score and the promise (seed `002_80c8c6af1a4e5690.txt` §3.2 Learn Tab and
/// Compete Tab, §4.1.3, §4.1.4, §4.2.1, §4.2.3, §5.3, §5.4.1, §5.6).
extension LazuriEngine {
    // MARK: The deck (§4.1.3, §4.2.1, §5.3.2)

    /// Cards in the filtered deck ("'All' in the filter" or one category; cards alternate between the categories).
    public var filteredCount: Int {
        guard let c = filter else { return parameters.deckSize }
        return (parameters.deckSize - c.index + 1) / 2
    }

    /// The card at the filtered position (§4.2.1 "their current position in each deck, for example, 5/100").
    public var currentCard: CardID? {
        guard filteredCount > 0 else { return nil }
        let p = min(position, filteredCount - 1)
        return CardID(filter.map { 2 * p + $0.index } ?? p)
    }

    /// Whether a card was ever viewed.
    public func hasSeen(_ card: CardID) -> Bool { seen.contains(card) }

    var onLearn: Bool { appOpen && tab == .learn }

    /// The card showing is marked as viewed (§5.3.3 "When cards appear on screen through the "onAppear" modifier and
    /// when users finish swipe gestures, they are marked as viewed"): a new id adds 1 to the unique count ("re-views
    /// don't add progress", §3.2), checks the achievements and submits the score when signed in (§5.6.2).
    mutating func showCard(_ out: inout LazuriOutcome) {
        guard let card = currentCard else { return }
        let isNew = seen.insert(card)
        if isNew {
            uniqueViews += 1
            unlockAchievements(&out)
        }
        out.events.append(.cardViewed(card, isNew: isNew, uniqueTotal: uniqueViews))
        out.effects.append(.databaseWrite)
        if isNew && gameCenterSignedIn {
            out.events.append(.leaderboardScoreSubmitted(score: score))
            out.effects.append(.gameCenterRequest)
        }
        out.decision = .cardShown(card, isNew: isNew)
    }

    /// "swipe left to see the next flashcard, and they must swipe right to see the previous one. They can swipe up to
    /// share the content" (§4.1.3). At the ends the deck wraps round (`cards.wrap_at_ends`) or stays.
    mutating func swipe(_ s: Swipe, _ out: inout LazuriOutcome) {
        guard onLearn else { out.decision = .refused(.notOnLearn); return }
        guard let card = currentCard else { return }
        let n = filteredCount
        switch s {
        case .share:
            out.events.append(.cardShared(card))
            out.effects.append(.systemSheet)
            out.decision = .shared(card)
            return
        case .next: position = position + 1 < n ? position + 1 : (parameters.wrapAtEnds ? 0 : n - 1)
        case .previous: position = position > 0 ? position - 1 : (parameters.wrapAtEnds ? n - 1 : 0)
        }
        showCard(&out)
    }

    /// "When a user taps on the card, the associated link about the topic should come up through the default browser"
    /// (§4.2.1): the person leaves the app. Every card is taken to have a link (assumption; the JSON's `link` is optional).
    mutating func cardLinkTapped(_ out: inout LazuriOutcome) {
        guard onLearn else { out.decision = .refused(.notOnLearn); return }
        guard let card = currentCard else { return }
        out.events.append(.cardLinkOpened(card))
        out.effects.append(.systemSheet)
        out.decision = .linkOpened(card)
        appOpen = false
        tab = nil
    }

    /// "Filtering should enable them to quickly switch between categories … or they can just view all content by choosing
    /// 'All'" (§4.2.1): the filtered deck starts at its first card, which appears.
    mutating func setFilter(_ c: CardCategory?, _ out: inout LazuriOutcome) {
        guard onLearn else { out.decision = .refused(.notOnLearn); return }
        filter = c
        position = 0
        out.events.append(.categoryFilterChanged(c))
        showCard(&out)
    }

    // MARK: Achievements and score (§4.1.4, §5.6.2)

    /// `checkFlashcardAchievements()`: every threshold reached and not yet unlocked is unlocked, its points added to the
    /// score (§5.6.2 `calculateTotalScore()`); reported to Game Center when signed in (optional, §4.1.9).
    mutating func unlockAchievements(_ out: inout LazuriOutcome) {
        for k in 0..<6 where unlocked & (1 << UInt8(k)) == 0 && uniqueViews >= parameters.achievementCards[k] {
            unlocked |= 1 << UInt8(k)
            score += parameters.achievementPoints[k]
            out.events.append(.achievementUnlocked(threshold: parameters.achievementCards[k], points: parameters.achievementPoints[k]))
            if gameCenterSignedIn { out.effects.append(.gameCenterRequest) }
        }
    }

    // MARK: The promise (§4.2.3, §5.4.1)

    /// Save in the promise sheet: "The text field limits input to 900 characters by cutting off anything longer"
    /// (§5.4.1); Save is disabled while the trimmed text is empty (Figure 24), so a promise once set cannot be cleared.
    mutating func savePromise(_ characters: Int, _ out: inout LazuriOutcome) {
        guard characters > 0 else { out.decision = .refused(.emptyPromise); return }
        let first = promiseLength == 0
        promiseLength = min(characters, parameters.promiseMaxCharacters)
        out.events.append(.promiseSaved(length: promiseLength, truncated: characters > parameters.promiseMaxCharacters, firstTime: first))
        out.effects.append(.databaseWrite)
        out.decision = .updated
    }
}
