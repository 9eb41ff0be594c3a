import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

/// `tipcat strings status`: counts per locale, orphans, JSON, `--min-coverage`.
@Suite struct StringsCommandTests {
    struct Counts: Equatable, CustomStringConvertible {
        var translated = 0, needsReview = 0, new = 0, stale = 0, missing = 0
        var description: String { "\(translated)/\(needsReview)/\(new)/\(stale)/\(missing)" }
    }

    static func object(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The expected figures computed straight from the catalog's files with JSONSerialization: the keys from
    /// tips/*.json, the states from Localizable.xcstrings (a plural variation counts as translated only when every
    /// form is; otherwise it takes a form's other state).
    static func expected(catalog: String) throws -> (source: String, keys: Set<String>, locales: [(String, Counts)], orphans: Int) {
        let settings = try object(catalog + "/catalog.json")
        let source = try #require(settings["sourceLanguage"] as? String)
        let supported = try #require(settings["supportedLocales"] as? [String])
        var keys = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: catalog + "/tips") where file.hasSuffix(".json") {
            let tip = try object(catalog + "/tips/" + file)
            let id = try #require(tip["id"] as? String)
            keys.insert(id + ".title")
            if tip["message"] != nil { keys.insert(id + ".message") }
            for action in tip["actions"] as? [[String: Any]] ?? [] {
                keys.insert(id + ".action." + (try #require(action["id"] as? String)))
            }
        }
        let strings = try object(catalog + "/Localizable.xcstrings")["strings"] as? [String: [String: Any]] ?? [:]
        func state(_ localization: [String: Any]) -> String? {
            if let unit = localization["stringUnit"] as? [String: Any] { return unit["state"] as? String ?? "translated" }
            guard let forms = (localization["variations"] as? [String: Any])?["plural"] as? [String: [String: Any]] else { return nil }
            let states = forms.values.map { (($0["stringUnit"] as? [String: Any])?["state"] as? String) ?? "translated" }
            return states.first { $0 != "translated" } ?? "translated"
        }
        let locales = supported.filter { $0 != source }.map { locale -> (String, Counts) in
            var counts = Counts()
            for key in keys {
                let localization = (strings[key]?["localizations"] as? [String: Any])?[locale] as? [String: Any]
                switch localization.flatMap(state) {
                case "translated": counts.translated += 1
                case "needs_review": counts.needsReview += 1
                case "new": counts.new += 1
                case "stale": counts.stale += 1
                default: counts.missing += 1
                }
            }
            return (locale, counts)
        }
        return (source, keys, locales, Set(strings.keys).subtracting(keys).count)
    }

    static func parsed(_ stdout: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    }

    static func counts(_ json: [String: Any]) throws -> [(String, Counts, Double)] {
        try (json["locales"] as? [[String: Any]] ?? []).map { item in
            (try #require(item["locale"] as? String),
             Counts(translated: item["translated"] as? Int ?? -1, needsReview: item["needsReview"] as? Int ?? -1,
                    new: item["new"] as? Int ?? -1, stale: item["stale"] as? Int ?? -1, missing: item["missing"] as? Int ?? -1),
             try #require(item["percent"] as? Double))
        }
    }

    static func percent(_ counts: Counts, of total: Int) -> Double {
        (Double(counts.translated) * 1000 / Double(total)).rounded() / 10
    }

    @Test func sampleCatalogsRealCounts() throws {
        let expected = try Self.expected(catalog: sampleCatalogPath)
        let result = tipcat("strings", "status", "--catalog", sampleCatalogPath, "--json")
        #expect(result.status == .success, "\(result.stderr)")
        let json = try Self.parsed(result.stdout)
        #expect(json["sourceLanguage"] as? String == expected.source)
        #expect(json["texts"] as? Int == expected.keys.count)
        #expect(json["orphans"] as? Int == expected.orphans)
        let counts = try Self.counts(json)
        #expect(counts.map(\.0) == expected.locales.map(\.0))
        for ((locale, found, percent), (_, wanted)) in zip(counts, expected.locales) {
            #expect(found == wanted, "\(locale)")
            #expect(percent == Self.percent(wanted, of: expected.keys.count), "\(locale)")
        }

        // The table has the same figures, one aligned row per locale in supportedLocales order, then the total.
        let text = tipcat("strings", "status", "--catalog", sampleCatalogPath)
        #expect(text.status == .success)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.locales.count + 3)
        #expect(lines.first?.hasPrefix("LOCALE  TRANSLATED  NEEDS REVIEW  NEW  STALE  MISSING  PERCENT") == true)
        #expect(Set(lines.dropLast().map(\.count)).count == 1, "columns are aligned:\n\(text.stdout)")
        for (index, (locale, wanted)) in expected.locales.enumerated() {
            let cells = lines[index + 1].split(separator: " ").map(String.init)
            #expect(cells == [locale, "\(wanted.translated)", "\(wanted.needsReview)", "\(wanted.new)", "\(wanted.stale)",
                              "\(wanted.missing)", String(format: "%.1f%%", Self.percent(wanted, of: expected.keys.count))])
        }
        let total = expected.locales.reduce(0) { $0 + $1.1.translated }
        #expect(lines[lines.count - 2].hasPrefix("total") && lines[lines.count - 2].contains(" \(total) "))
        #expect(lines.last == "\(expected.keys.count) texts in \(expected.source), \(expected.locales.count) locales; \(expected.orphans) orphan keys (matching no tip text)")
    }

    /// A catalog with a text in every state, a plural variation, an orphan key and a pseudo-locale in
    /// supportedLocales (not counted).
    static func stateCatalog(_ directory: TemporaryDirectory) throws -> String {
        try directory.write("Catalog/catalog.json", """
            {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr", "de", "en-XA", "ja"]}
            """)
        try directory.write("Catalog/tips/A.json", """
            {"id": "A", "title": "Hello", "message": "Welcome back",
             "actions": [{"id": "go", "title": "Go"}, {"id": "stop", "title": "Stop"}]}
            """)
        try directory.write("Catalog/tips/B.json", """
            {"id": "B", "customID": "B-{n}", "title": "{n, plural, one {# trail} other {# trails}}", "parameters": {"n": "int"}}
            """)
        func unit(_ state: String, _ value: String) -> String { #"{"stringUnit": {"state": "\#(state)", "value": "\#(value)"}}"# }
        try directory.write("Catalog/Localizable.xcstrings", """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "A.title": {"localizations": {"fr": \(unit("translated", "Bonjour")), "de": \(unit("translated", "Hallo"))}},
              "A.message": {"localizations": {"fr": \(unit("needs_review", "Bon retour")), "de": \(unit("new", "Willkommen"))}},
              "A.action.go": {"localizations": {"fr": \(unit("new", "Aller")), "de": \(unit("stale", "Los"))}},
              "A.action.stop": {"localizations": {"fr": \(unit("stale", "Stop"))}},
              "B.title": {"localizations": {"fr": {"variations": {"plural": {
                "one": \(unit("translated", "# sentier")), "many": \(unit("translated", "# de sentiers")), "other": \(unit("translated", "# sentiers"))}}},
                "de": {"variations": {"plural": {
                "one": \(unit("translated", "# Weg")), "other": \(unit("needs_review", "# Wege"))}}}}},
              "A.titel": {"localizations": {"fr": \(unit("translated", "Salut"))}},
              "Gone.title": {"localizations": {"de": \(unit("translated", "Weg"))}}
            }}
            """)
        return directory.path + "/Catalog"
    }

    @Test func everyStateIsCounted() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.stateCatalog(directory)
        let result = tipcat("strings", "status", "--catalog", catalog, "--json")
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        // not-translated and orphan-translation warnings are summed up, not printed.
        #expect(result.stderr.contains("warning"))
        let json = try Self.parsed(result.stdout)
        #expect(json["texts"] as? Int == 5)  // A.title, A.message, 2 actions, B.title; custom IDs are not translated
        #expect(json["orphans"] as? Int == 2)
        let counts = try Self.counts(json)
        #expect(counts.map(\.0) == ["fr", "de", "ja"])
        #expect(counts.map(\.1) == [
            Counts(translated: 2, needsReview: 1, new: 1, stale: 1, missing: 0),
            Counts(translated: 1, needsReview: 1, new: 1, stale: 1, missing: 1),
            Counts(translated: 0, needsReview: 0, new: 0, stale: 0, missing: 5),
        ])
        #expect(counts.map(\.2) == [40.0, 20.0, 0.0])
        #expect(result.stdout.contains(#""percent": 0.0"#))

        // The same, computed independently from the files.
        let expected = try Self.expected(catalog: catalog)
        #expect(expected.locales.filter { $0.0 != "en-XA" }.map(\.1) == counts.map(\.1))

        let text = tipcat("strings", "status", "--catalog", catalog)
        #expect(text.stdout == """
            LOCALE  TRANSLATED  NEEDS REVIEW  NEW  STALE  MISSING  PERCENT
            fr               2             1    1      1        0    40.0%
            de               1             1    1      1        1    20.0%
            ja               0             0    0      0        5     0.0%
            total            3             2    2      2        6    20.0%
            5 texts in en, 3 locales; 2 orphan keys (matching no tip text)

            """)
    }

    @Test func minCoverage() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.stateCatalog(directory)
        func run(_ value: String) -> RunResult { tipcat("strings", "status", "--catalog", catalog, "--min-coverage", value) }
        #expect(run("0").status == .success)
        #expect(run("0.0").status == .success)
        let failing = run("20")
        #expect(failing.status == .failure)
        #expect(failing.stdout.contains("total"), "the table is printed anyway")
        #expect(failing.stderr.contains("1 locale below 20% translated: ja (0.0%)"), "\(failing.stderr)")
        let several = run("40.5")
        #expect(several.status == .failure)
        #expect(several.stderr.contains("3 locales below 40.5% translated: fr (40.0%), de (20.0%), ja (0.0%)"))
        // JSON keeps stdout parseable; the names go to stderr.
        let json = tipcat("strings", "status", "--catalog", catalog, "--json", "--min-coverage", "100")
        #expect(json.status == .failure)
        #expect(try Self.parsed(json.stdout)["texts"] as? Int == 5)

        for bad in ["", "abc", "-1", "100.1", "101", "1e2", "50%", ".5", "5.", "nan", "inf", "1.2.3", "٥٠"] {
            let result = run(bad)
            #expect(result.status == .usage, "'\(bad)': \(result.stderr)")
            #expect(result.stdout == "")
            #expect(result.stderr.contains("--min-coverage takes a percentage from 0 to 100"), "'\(bad)'")
        }
        let sample = tipcat("strings", "status", "--catalog", sampleCatalogPath, "--min-coverage", "100")
        #expect(sample.status == (try Self.expected(catalog: sampleCatalogPath).locales.allSatisfy { $0.1.missing == 0 } ? .success : .failure))
    }

    @Test func aCatalogWithErrorsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/A.json", #"{"id": "A", "title": "Hello {name"}"#)
        let result = tipcat("strings", "status", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("error: \(catalog) has 1 error; no translation status"), "\(result.stderr)")
        #expect(tipcat("strings", "status", "--catalog", directory.file("nowhere")).status == .failure)
    }

    @Test func groupHelpAndEmptyCatalog() throws {
        let help = tipcat("strings")
        #expect(help.status == .success)
        #expect(help.stdout.contains("status"))
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        let result = tipcat("strings", "status", "--catalog", catalog, "--min-coverage", "100")
        #expect(result.status == .failure)
        #expect(result.stdout.contains("fr               0             0    0      0        1     0.0%"), "\(result.stdout)")
    }
}
