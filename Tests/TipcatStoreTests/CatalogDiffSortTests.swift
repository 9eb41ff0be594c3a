import Testing
import TipcatCore
@testable import TipcatStore

/// `CatalogDiff.sort` orders changes as a stable sort by `CatalogDiff.order` does, whatever order they come in.
@Suite struct CatalogDiffSortTests {
    @Test func sortsByAreaThenOrderKeepingEqualChangesInTheirOrder() {
        #expect(CatalogChange.Area.allCases.enumerated().allSatisfy { $0.offset == $0.element.rank })
        var random = SeededGenerator(seed: 0xD1FF)
        let subjects = ["A", "B", "b", "Tip.1", "Tip.10", "Tip.2", "é", "e\u{301}", ""]
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        for count in [0, 1, 2, 5, 40, 300] {
            for shape in 0..<3 {
                var changes = (0..<count).map { index in
                    CatalogChange(
                        pick(CatalogChange.Kind.allCases), pick(CatalogChange.Area.allCases), subject: pick(subjects),
                        field: pick([nil, "title", "message"]), locale: pick([nil, "fr", "de"]), new: "\(index)")
                }
                // Already in order, in order but for one pair, and shuffled.
                if shape < 2 { changes = Self.stablySorted(changes) }
                if shape == 1, changes.count > 3 { changes.swapAt(1, changes.count - 2) }
                let expected = Self.stablySorted(changes)
                CatalogDiff.sort(&changes)
                #expect(changes == expected, "\(count) changes, shape \(shape)")
            }
        }
    }

    static func stablySorted(_ changes: [CatalogChange]) -> [CatalogChange] {
        changes.enumerated().sorted { first, second in
            CatalogDiff.order(first.element, second.element)
                || (!CatalogDiff.order(second.element, first.element) && first.offset < second.offset)
        }.map(\.element)
    }
}
