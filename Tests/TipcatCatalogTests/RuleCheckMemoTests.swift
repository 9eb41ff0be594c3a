import Foundation
import Testing
import TipcatCore
import TipcatTestSupport
@testable import TipcatCatalog

/// Rules are checked once per text and tip parameters for a whole load (`RuleCheckMemo`): tips that share a rule
/// text but not its parameters get their own findings, and a finding shared by many tips is located in each one's
/// own file — across the chunks the tips are decoded in on every core.
@Suite struct RuleCheckMemoTests {
    @Test func sharedRulesAreCheckedPerParameterSetAndLocatedPerTip() throws {
        let directory = try TemporaryDirectory()
        let path = try minimalCatalog(in: directory)
        let count = 150
        for index in 0..<count {
            // Even tips declare `count`; odd ones do not, so the same text names an unknown name there.
            let parameters = index.isMultiple(of: 2) ? #", "parameters": {"count": "int"}, "example": {"count": 1}"# : ""
            try directory.write("Catalog/tips/T\(index).json", ##"{"id": "T\##(index)", "title": "Hello", "rules": ["count > 2", "#nosuch.count > 1"]\##(parameters)}"##)
        }
        let result = CatalogLoader().load(directory: path)
        let unknownName = result.diagnostics.filter { $0.message.contains("'count'") }
        #expect(Set(unknownName.compactMap { $0.location?.file.split(separator: "/").last.map(String.init) })
            == Set((0..<count).filter { !$0.isMultiple(of: 2) }.map { "T\($0).json" }))
        #expect(unknownName.count == count / 2)
        // The unknown event: one finding in every tip, at the event's column in that tip's own file.
        let unknownEvent = result.diagnostics.filter { $0.message.contains("nosuch") }
        #expect(unknownEvent.count == count)
        #expect(Set(unknownEvent.compactMap { $0.location?.file.split(separator: "/").last.map(String.init) }).count == count)
        // Ids of one, two and three digits move the rule along the line: the column less the rule's place is the same.
        let shifts = try Set(unknownEvent.map { diagnostic -> Int in
            let location = try #require(diagnostic.location)
            let text = try String(contentsOfFile: location.file, encoding: .utf8)
            let rule = try #require(text.range(of: "#nosuch"))
            return location.column - text.utf8.distance(from: text.startIndex, to: rule.lowerBound)
        })
        #expect(shifts.count == 1)
    }
}
