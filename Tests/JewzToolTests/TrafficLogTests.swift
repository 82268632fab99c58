import Foundation
import JewzHTTPCore
import Testing

@testable import jewz

/// The traffic view's log alone: what it keeps, and what a page is told.
@Suite struct TrafficLogTests {
    private func begin(_ log: TrafficLog, _ count: Int) -> [Int] {
        (0..<count).map { index in
            log.begin { id in
                TrafficExchange(id: id, started: Date(), method: "GET", url: URL(fileURLWithPath: "/\(index)"), requestHeaders: HTTPHeaderFields())
            }
        }
    }

    @Test func itKeepsTheLastExchangesHoweverManyCome() {
        let log = TrafficLog(capacity: 3, bodyLimit: 16)
        let ids = begin(log, 200)
        #expect(ids == Array(1...200))
        #expect(log.exchanges.map(\.id) == [198, 199, 200])
        #expect(log.exchange(197) == nil)
        #expect(log.exchange(198)?.id == 198)
        log.update(10) { $0.status = 200 }  // long gone: nothing happens
        #expect(log.exchanges.allSatisfy { $0.status == nil })
    }

    @Test func aPageIsToldWhichRowsChangedEachOnceInItsLatestState() async {
        let log = TrafficLog(capacity: 10, bodyLimit: 16)
        _ = begin(log, 2)
        let watch = log.watch()
        var wakes = watch.wakes.makeAsyncIterator()
        #expect(await wakes.next() != nil)
        #expect(watch.changes().compactMap { $0["id"].int } == [1, 2], "a page starts with every kept row")
        log.update(2) { $0.status = 201 }
        log.update(2) { $0.status = 204 }
        log.update(1, notifying: false) { $0.status = 500 }
        #expect(await wakes.next() != nil)
        let changed = watch.changes()
        #expect(changed.compactMap { $0["id"].int } == [2])
        #expect(changed.first?["status"].int == 204)
        #expect(watch.changes().isEmpty)
        log.close()
        #expect(await wakes.next() == nil, "a closed log ends the watch")
    }
}
