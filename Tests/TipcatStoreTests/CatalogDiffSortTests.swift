import Testing
import TipcatCatalog
import TipcatCore
@testable import TipcatCodec
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

    /// The summary counts each subject once and lists them in order, whether the changes come sorted (a diff's own:
    /// a subject repeats only right after itself) or not (a diff changed by hand).
    @Test func theSummaryCountsEachSubjectOnceInOrderOrNot() throws {
        for (name, catalog) in try OutlinedDiffTests.catalogs() {
            let tree = ContentTree(catalog: catalog)
            let reader = TreeReader(LayeredObjectSource([tree]))
            let first = try CatalogDiff(from: nil, to: tree.root, reader: reader)
            let keys = Set(first.changes.filter { $0.area == CatalogChange.Area.translation }.map { $0.subject }).count
            #expect(first.summary.hasPrefix("initial version: \(catalog.tips.count) tips"), "\(name): \(first.summary)")
            #expect(keys == 0 || first.summary.hasSuffix(", \(keys) translated text\(keys == 1 ? "" : "s")"), "\(name): \(first.summary)")
            var random = SeededGenerator(seed: 0x5EED)
            var shuffled = first
            shuffled.changes.shuffle(using: &random)
            #expect(shuffled.summary == first.summary, "\(name)")
        }
        // A later version's: subjects named in the order of the changes, each once.
        var changes = [
            CatalogChange(.changed, .tip, subject: "B", field: "title"), CatalogChange(.changed, .tip, subject: "A", field: "title"),
            CatalogChange(.changed, .tip, subject: "B", field: "message"), CatalogChange(.changed, .tip, subject: "C", field: "title"),
            CatalogChange(.changed, .tip, subject: "A", field: "message"),
        ]
        let catalog = try #require(try OutlinedDiffTests.catalogs().first).1
        let tree = ContentTree(catalog: catalog)
        var diff = try CatalogDiff(from: nil, to: tree.root, reader: TreeReader(LayeredObjectSource([tree])))
        diff.isInitial = false
        diff.changes = changes
        #expect(diff.summary == "3 tips changed (B, A, C)")
        CatalogDiff.sort(&changes)
        diff.changes = changes
        #expect(diff.summary == "3 tips changed (A, B, C)")
    }

    static func stablySorted(_ changes: [CatalogChange]) -> [CatalogChange] {
        changes.enumerated().sorted { first, second in
            CatalogDiff.order(first.element, second.element)
                || (!CatalogDiff.order(second.element, first.element) && first.offset < second.offset)
        }.map(\.element)
    }
}
