/// When an origin's calls were answered, oldest first: appended in order, forgotten from the
/// front, so that counting those after an instant is a binary search and keeping them costs no
/// more per call however many a window holds.
struct AnswerLog {
    private var instants: [ContinuousClock.Instant] = []
    /// Where the kept ones start: the ones before it are forgotten, and cut away in bulk.
    private var start = 0

    /// The last answer, if one is kept.
    var latest: ContinuousClock.Instant? {
        start < instants.count ? instants.last : nil
    }

    /// Keeps an answer at `instant`, no earlier than the last.
    mutating func append(_ instant: ContinuousClock.Instant) {
        instants.append(instant)
    }

    /// Forgets the answers at or before `cutoff`, and the oldest past `maximum`.
    mutating func forget(before cutoff: ContinuousClock.Instant, keepingAtMost maximum: Int) {
        start = max(firstIndex(after: cutoff), instants.count - maximum, start)
        if start > 64, start * 2 > instants.count {
            instants.removeFirst(start)
            start = 0
        }
    }

    /// How many answers came after `instant`.
    func count(after instant: ContinuousClock.Instant) -> Int {
        instants.count - firstIndex(after: instant)
    }

    /// The last `count` answers, oldest first.
    func last(_ count: Int) -> ArraySlice<ContinuousClock.Instant> {
        instants[max(instants.count - count, start)...]
    }

    /// The index of the first kept answer after `instant`.
    private func firstIndex(after instant: ContinuousClock.Instant) -> Int {
        var low = start
        var high = instants.count
        while low < high {
            let middle = (low + high) / 2
            if instants[middle] > instant { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
