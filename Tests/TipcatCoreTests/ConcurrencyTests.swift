import Synchronization
import Testing
@testable import TipcatCore

/// `concurrentArray`: elements in their places whatever the chunking; a chunk that fails or emits too few or too
/// many makes the whole nil, and every element it or others emitted is released.
@Suite struct ConcurrencyTests {
    /// A count of instances alive: each test that counts has its own (tests run at once).
    final class Counter: Sendable {
        let alive = Atomic<Int>(0)
    }

    /// Counts the instances alive, in `Tracked.counter` unless given another counter.
    final class Tracked: Sendable {
        static let counter = Counter()
        let value: Int
        let counter: Counter
        init(_ value: Int, counting counter: Counter = Tracked.counter) {
            self.value = value
            self.counter = counter
            counter.alive.add(1, ordering: .relaxed)
        }
        deinit { counter.alive.subtract(1, ordering: .relaxed) }
    }

    /// Counts its instances alive apart from `Tracked` (whose count another test reads meanwhile).
    final class Moved {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Moved.alive += 1
        }
        deinit { Moved.alive -= 1 }
    }

    /// `removeAllConcurrently` empties the array and releases every element once, on whichever core, whatever the
    /// count against the chunk size; an element another holder keeps stays alive.
    @Test func removingConcurrentlyReleasesEveryElementOnce() {
        let released = Counter()
        var kept: [Tracked] = []
        for (count, chunk) in [(0, 4), (3, 4), (4, 4), (5, 4), (1000, 7), (10_000, 1024)] {
            var elements: [Tracked?] = (0..<count).map { $0 % 3 == 0 ? nil : Tracked($0, counting: released) }
            if count == 1000, let element = elements[1] { kept.append(element) }
            elements.removeAllConcurrently(chunkSize: chunk)
            #expect(elements.isEmpty, "\(count) in chunks of \(chunk)")
        }
        #expect(released.alive.load(ordering: .relaxed) == 1 && kept.map(\.value) == [1])
        kept.removeAll()
        #expect(released.alive.load(ordering: .relaxed) == 0)
        var numbers = Array(0..<5000)
        numbers.removeAllConcurrently()
        #expect(numbers.isEmpty)
    }

    /// `appendMoving` and `joinedArrays` keep the elements' order, leave the source empty, and neither lose nor
    /// keep an element; a source that shares its storage keeps its elements for its other holder.
    @Test func movingAppendsKeepOrderAndEveryElementOnce() {
        do {
            var joined = [Moved(0)]
            var other = (1..<300).map(Moved.init)
            joined.appendMoving(&other)
            #expect(joined.map(\.value) == Array(0..<300) && other.isEmpty && other.capacity == 0)  // its storage freed at once
            var shared = (300..<310).map(Moved.init)
            let holder = shared
            joined.appendMoving(&shared)
            #expect(joined.map(\.value) == Array(0..<310) && shared.isEmpty && holder.map(\.value) == Array(300..<310))
            var empty: [Moved] = []
            joined.appendMoving(&empty)
            #expect(joined.count == 310)
            #expect(Moved.alive == 310)

            let parts = [[Moved(0), Moved(1)], [], (2..<100).map(Moved.init), [Moved(100)]]
            #expect(parts.joinedArrays().map(\.value) == Array(0...100))
            let kept = parts
            #expect(parts.joinedArrays().map(\.value) == Array(0...100) && kept.map(\.count) == [2, 0, 98, 1])

            // Values without references are appended as they are.
            var numbers = [1, 2]
            var more = [3, 4, 5]
            numbers.appendMoving(&more)
            #expect(numbers == [1, 2, 3, 4, 5] && more.isEmpty)
            #expect([[1], [], [2, 3]].joinedArrays() == [1, 2, 3])
        }
        #expect(Moved.alive == 0)
    }

    @Test func elementsAreInTheirPlacesAndFailuresReleaseEverything() {
        for (count, chunk) in [(0, 4), (1, 4), (7, 3), (1000, 64), (1000, 1000), (1000, 1)] {
            let made = concurrentArray(count: count, chunkSize: chunk) { (range, emit: (Tracked) -> Void) -> Bool in
                for index in range { emit(Tracked(index)) }
                return true
            }
            #expect(made?.map(\.value) == Array(0..<count), "\(count) in chunks of \(chunk)")
        }
        #expect(Tracked.counter.alive.load(ordering: .relaxed) == 0)

        // One chunk fails after emitting half its elements; one emits one too few; one emits one too many.
        let failures: [@Sendable (Range<Int>, (Tracked) -> Void) -> Bool] = [
            { range, emit in
                for index in range where range.lowerBound != 64 || index < 96 { emit(Tracked(index)) }
                return range.lowerBound != 64
            },
            { range, emit in
                for index in range.dropLast(range.lowerBound == 128 ? 1 : 0) { emit(Tracked(index)) }
                return true
            },
            { range, emit in
                for index in range { emit(Tracked(index)) }
                if range.lowerBound == 0 { emit(Tracked(-1)) }
                return true
            },
        ]
        for failure in failures {
            #expect(concurrentArray(count: 1000, chunkSize: 64, failure) == nil)
            #expect(Tracked.counter.alive.load(ordering: .relaxed) == 0, "nothing emitted is left alive")
        }
    }
}
