import Foundation
import Testing
import TipcatTestSupport

/// Tip ids as real apps write them: reverse-DNS with dots, kebab-case with dashes.
@Suite struct TipIDSyntaxTests {
    /// A catalog with `com.example.onboarding.share`, `onboarding-share` and a tip whose rules name them.
    private func catalog(_ directory: TemporaryDirectory) throws -> String {
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/com.example.onboarding.share.json", """
            {"id": "com.example.onboarding.share", "title": "Share a trail", "actions": [{"id": "open-share", "title": "Share"}]}
            """)
        try directory.write("Catalog/tips/onboarding-share.json", #"{"id": "onboarding-share", "title": "Share again"}"#)
        try directory.write("Catalog/tips/Follow.json", """
            {"id": "Follow", "title": "Then follow", "rules": ["tip(com.example.onboarding.share).invalidated(.actionPerformed) || tip(onboarding-share).available"]}
            """)
        try directory.write("Catalog/groups.json", #"{"groups": [{"id": "onboarding", "priority": "ordered", "tips": ["com.example.onboarding.share", "onboarding-share"]}]}"#)
        try directory.write("Catalog/Localizable.xcstrings", """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "com.example.onboarding.share.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Partager un sentier"}}}},
              "com.example.onboarding.share.action.open-share": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Partager"}}}},
              "com.example.gone.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Parti"}}}}
            }}
            """)
        return catalog
    }

    @Test func dottedAndDashedIDsValidateRenderAndPublish() throws {
        let directory = try TemporaryDirectory()
        let catalog = try catalog(directory)
        let validate = tipcat("validate", "--catalog", catalog)
        #expect(validate.status == .success, "\(validate.stdout)\(validate.stderr)")
        // The removed tip's key is recognized as a tip's (the dotted id before `.title`), so it is an orphan.
        #expect(validate.stdout.contains("'com.example.gone.title' matches no tip text"), "\(validate.stdout)")
        #expect(!validate.stdout.contains("'com.example.onboarding.share"), "\(validate.stdout)")
        let rendered = tipcat("render", "com.example.onboarding.share", "--locale", "fr", "--catalog", catalog)
        #expect(rendered.stdout == "Partager un sentier\n[ Partager ]\n", "\(rendered.stdout)\(rendered.stderr)")
        let store = directory.file("store.sqlite")
        #expect(tipcat("publish", "--catalog", catalog, "--store", store).status == .success)
        let state = ["--store", store, "--state", directory.file("state.sqlite"), "--now", "2026-01-05T10:00:00Z"]
        #expect(tipcat(["engine", "why", "Follow"] + state).stdout.hasPrefix("Follow: available"))
        #expect(tipcat(["engine", "invalidate", "com.example.onboarding.share", "--reason", "actionPerformed"] + state).status == .success)
        #expect(tipcat(["engine", "next", "--group", "onboarding"] + state).stdout == "onboarding-share\n")
    }

    @Test func badTipIDsAreRefusedAtTheirPosition() throws {
        for id in ["com..example", ".share", "share.", "a.1b", "a--b", "a-", "a b", "a/b"] {
            let directory = try TemporaryDirectory()
            let catalog = try minimalCatalog(in: directory)
            try directory.write("Catalog/tips/Bad.json", #"{"id": "\#(id)", "title": "x"}"#)
            let result = tipcat("validate", "--catalog", catalog)
            #expect(result.status == .failure, "\(id)")
            #expect(result.stdout.contains("tips/Bad.json:1:8: error: '\(id)' is not a valid tip id; use letters, digits, _ and - in parts joined by dots"),
                    "\(id): \(result.stdout)")
        }
    }

    @Test func aRuleNamingADottedTipNeedsNoSpaces() throws {
        let directory = try TemporaryDirectory()
        let catalog = try catalog(directory)
        try directory.write("Catalog/tips/Follow.json", #"{"id": "Follow", "title": "x", "rules": ["tip(com.example .onboarding.share).available"]}"#)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("expected ')' to close 'tip('"), "\(result.stdout)")
    }
}
