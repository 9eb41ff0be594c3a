import Foundation
import Testing
import TipcatTestSupport

/// Rules checked against what the catalog declares: an event's donation limit.
@Suite struct RuleLimitTests {
    /// A rule that needs more donations than the event keeps is `always-false`, located at the rule and at `maxCount`.
    @Test func countAboveMaxCountWarnsWithBothLocations() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.edit("Catalog/tips/FavoriteBackyardTip.json", replacing: ".count >= 3\"", with: ".count >= 1001\"")
        let result = tipcat("validate", "--catalog", catalog, "--no-plugins")
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == """
            \(catalog)/tips/FavoriteBackyardTip.json:15:6: warning: this rule is always false: #entered-backyard-detail-view keeps at most 1000 donations (its donationLimit.maxCount) [always-false]
            \(catalog)/events.json:10:21: note: #entered-backyard-detail-view keeps at most 1000 donations here

            """, "\(result.stdout)")
        // At the limit, the rule can hold.
        try directory.edit("Catalog/tips/FavoriteBackyardTip.json", replacing: ".count >= 1001\"", with: ".count >= 1000\"")
        #expect(tipcat("validate", "--catalog", catalog, "--no-plugins").stdout == "")
    }

    /// An int compared with a decimal is accepted (no `type-mismatch`).
    @Test func intComparedWithADecimalIsAccepted() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.edit("Catalog/tips/OptionTip.json", replacing: "\"$launchCount >= 10\"", with: "\"$launchCount > 9.5\"")
        let result = tipcat("validate", "--catalog", catalog, "--no-plugins", "--strict")
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "")
    }
}
