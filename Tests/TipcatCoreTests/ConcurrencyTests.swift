import Synchronization
import Testing
@testable import TipcatCore

/// `concurrentArray`: elements in their places whatever the chunking; a chunk that fails or emits too few or too
/// many makes the whole nil, and every element it or others emitted is released.
@Suite struct ConcurrencyTests {
    /// Counts the instances alive.
    final class Tracked: Sendable {
        static let alive = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive.add(1, ordering: .relaxed)
        }
        deinit { Tracked.alive.subtract(1, ordering: .relaxed) }
    }

    @Test func elementsAreInTheirPlacesAndFailuresReleaseEverything() {
        for (count, chunk) in [(0, 4), (1, 4), (7, 3), (1000, 64), (1000, 1000), (1000, 1)] {
            let made = concurrentArray(count: count, chunkSize: chunk) { (range, emit: (Tracked) -> Void) -> Bool in
                for index in range { emit(Tracked(index)) }
                return true
            }
            #expect(made?.map(\.value) == Array(0..<count), "\(count) in chunks of \(chunk)")
        }
        #expect(Tracked.alive.load(ordering: .relaxed) == 0)

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
            #expect(Tracked.alive.load(ordering: .relaxed) == 0, "nothing emitted is left alive")
        }
    }
}
