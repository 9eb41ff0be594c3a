import Foundation
import Testing
import TipcatTestSupport
@testable import TipcatCLI

/// `tipcat plural` agrees with every sample number CLDR lists, for every locale (compact `c` samples included).
@Suite struct PluralSampleTests {
    static let all: [CLDRPluralFixture.LocaleSamples] = (try? CLDRPluralFixture.load()) ?? []

    @Test func everyLocaleIsCovered() {
        #expect(Self.all.count == 216)
    }

    @Test(arguments: all)
    func cliAgreesWithCLDR(_ entry: CLDRPluralFixture.LocaleSamples) {
        let samples = entry.samples.sorted { $0.key < $1.key }.flatMap { category, numbers in numbers.map { ($0, category) } }
        let result = tipcat(["plural", entry.locale] + samples.map(\.0))
        #expect(result.status == .success, "\(result.stderr)")
        let answers = result.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == samples.count)
        for ((number, expected), answer) in zip(samples, answers) where expected != answer {
            Issue.record("\(entry.locale) \(number): CLDR says \(expected), tipcat says \(answer)")
        }
    }
}
