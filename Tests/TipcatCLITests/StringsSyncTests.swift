import Foundation
import Testing
import TipcatTestSupport

/// `tipcat strings sync`: added, needs_review, stale and pruned keys, `--check`, a file in sync left identical.
@Suite struct StringsSyncTests {
    /// What the template below varies.
    struct Strings {
        var aTitle = "Hello", aTitleFr = "translated"
        var aMessage = "{n, plural, one {# trail} other {# trails}}", aMessageFr = "translated"
        var bStale = false, withB = true, withOld = true
        var cAdded = false
        var aComment = "Greeting"
    }

    /// Localizable.xcstrings as Xcode writes it: A (title, plural message), B, the app's own `Settings`, and
    /// `Old.title`, already stale.
    static func xcstrings(_ s: Strings) -> String {
        func unit(_ state: String, _ value: String, _ indent: String) -> String {
            """
            \(indent)"stringUnit" : {
            \(indent)  "state" : "\(state)",
            \(indent)  "value" : "\(value)"
            \(indent)}
            """
        }
        var entries: [String] = []
        entries.append("""
                "A.message" : {
                  "comment" : "\(s.aComment)",
                  "extractionState" : "manual",
                  "localizations" : {
                    "en" : {
            \(unit("translated", s.aMessage, "          "))
                    },
                    "fr" : {
                      "variations" : {
                        "plural" : {
                          "one" : {
            \(unit(s.aMessageFr, "# sentier", "                "))
                          },
                          "other" : {
            \(unit(s.aMessageFr, "# sentiers", "                "))
                          }
                        }
                      }
                    }
                  }
                }
            """)
        entries.append("""
                "A.title" : {
                  "comment" : "\(s.aComment)",
                  "extractionState" : "manual",
                  "localizations" : {
                    "de" : {
            \(unit("new", "Hallo", "          "))
                    },
                    "en" : {
            \(unit("translated", s.aTitle, "          "))
                    },
                    "fr" : {
            \(unit(s.aTitleFr, "Bonjour \\\"toi\\\"", "          "))
                    }
                  }
                }
            """)
        if s.withB {
            entries.append("""
                    "B.title" : {
                      "extractionState" : "\(s.bStale ? "stale" : "manual")",
                      "localizations" : {
                        "en" : {
                \(unit("translated", "Bye", "          "))
                        },
                        "fr" : {
                \(unit("translated", "Au revoir", "          "))
                        }
                      }
                    }
                """)
        }
        if s.cAdded {
            entries.append("""
                    "C.title" : {
                      "comment" : "A \\"new\\" tip\\nfor tests",
                      "extractionState" : "manual",
                      "localizations" : {
                        "en" : {
                \(unit("translated", "Café", "          "))
                        }
                      }
                    }
                """)
        }
        if s.withOld {
            entries.append("""
                    "Old.title" : {
                      "extractionState" : "stale",
                      "localizations" : {
                        "fr" : {
                \(unit("translated", "Vieux", "          "))
                        }
                      }
                    }
                """)
        }
        entries.append("""
                "Settings" : {
                  "shouldTranslate" : false
                }
            """)
        return """
            {
              "sourceLanguage" : "en",
              "strings" : {
            \(entries.joined(separator: ",\n"))
              },
              "version" : "1.0"
            }

            """
    }

    /// A catalog whose Localizable.xcstrings is in sync with its tips.
    static func catalog(_ directory: TemporaryDirectory) throws -> String {
        try directory.write("Catalog/catalog.json", """
            {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr", "de"]}
            """)
        try directory.write("Catalog/tips/A.json", """
            {"id": "A", "title": "Hello", "message": "{n, plural, one {# trail} other {# trails}}",
             "parameters": {"n": "int"}, "comment": "Greeting"}
            """)
        try directory.write("Catalog/tips/B.json", #"{"id": "B", "title": "Bye"}"#)
        try directory.write("Catalog/Localizable.xcstrings", xcstrings(Strings()))
        return directory.path + "/Catalog"
    }

    static let file = "Catalog/Localizable.xcstrings"

    @Test func fileInSyncIsLeftIdentical() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        let check = tipcat("strings", "sync", "--catalog", catalog, "--check")
        #expect(check.status == .success, "\(check.stdout)\(check.stderr)")
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("Localizable.xcstrings is up to date\n"))
        #expect(try directory.read(Self.file) == Self.xcstrings(Strings()))
    }

    @Test func sampleIsLeftIdenticalOnceSynced() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let first = tipcat("strings", "sync", "--catalog", catalog)
        #expect(first.status == .success, "\(first.stdout)\(first.stderr)")
        let synced = try Data(contentsOf: URL(fileURLWithPath: catalog + "/Localizable.xcstrings"))
        let second = tipcat("strings", "sync", "--catalog", catalog, "--check")
        #expect(second.status == .success, "\(second.stdout)\(second.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog + "/Localizable.xcstrings")) == synced)
        #expect(tipcat("validate", "--catalog", catalog).status == .success)
    }

    @Test func changedSourceTextMarksExactlyItsTranslationsForReview() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try directory.edit("Catalog/tips/A.json", replacing: #""title": "Hello""#, with: #""title": "Hi \"you\"""#)
        try directory.edit("Catalog/tips/A.json", replacing: "# trails}}", with: "# paths}}")
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": 2 needs_review\n"))
        var expected = Strings()
        expected.aTitle = #"Hi \"you\""#
        expected.aTitleFr = "needs_review"  // de was "new": stays new
        expected.aMessage = "{n, plural, one {# trail} other {# paths}}"
        expected.aMessageFr = "needs_review"
        #expect(try directory.read(Self.file) == Self.xcstrings(expected))
    }

    @Test func changedTipCommentBecomesTheKeysComment() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try directory.edit("Catalog/tips/A.json", replacing: #""comment": "Greeting""#, with: #""comment": "Shown on the first launch""#)
        let check = tipcat("strings", "sync", "--catalog", catalog, "--check")
        #expect(check.status == .failure)
        #expect(check.stdout.contains("comment updated: A.message\n") && check.stdout.contains("comment updated: A.title\n"), "\(check.stdout)")
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": 2 comment updated\n"), "\(result.stdout)")
        var expected = Strings()
        expected.aComment = "Shown on the first launch"
        #expect(try directory.read(Self.file) == Self.xcstrings(expected))
        // A tip without a comment leaves the keys' comments alone.
        try directory.edit("Catalog/tips/A.json", replacing: #", "comment": "Shown on the first launch""#, with: "")
        #expect(tipcat("strings", "sync", "--catalog", catalog, "--check").status == .success)
    }

    @Test func removedTipIsStaleThenPruned() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        // orphan-translation raised to an error does not stop sync: it is what sync resolves.
        try directory.write("Catalog/lint.json", #"{"rules": {"orphan-translation": "error"}}"#)
        try FileManager.default.removeItem(atPath: catalog + "/tips/B.json")
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": 1 stale\n"))
        var expected = Strings()
        expected.bStale = true
        #expect(try directory.read(Self.file) == Self.xcstrings(expected))

        let pruned = tipcat("strings", "sync", "--catalog", catalog, "--prune")
        #expect(pruned.status == .success, "\(pruned.stdout)\(pruned.stderr)")
        #expect(pruned.stdout.contains(": 2 pruned\n"))
        expected.withB = false
        expected.withOld = false  // Settings is the app's: kept
        #expect(try directory.read(Self.file) == Self.xcstrings(expected))
        #expect(tipcat("validate", "--catalog", catalog).status == .success)
    }

    @Test func checkListsChangesAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try directory.edit("Catalog/tips/A.json", replacing: #""title": "Hello""#, with: #""title": "Hi""#)
        try FileManager.default.removeItem(atPath: catalog + "/tips/B.json")
        let before = try directory.read(Self.file)
        let result = tipcat("strings", "sync", "--catalog", catalog, "--check", "--prune")
        #expect(result.status == .failure)
        #expect(result.stdout == "needs_review: A.title\npruned: B.title\npruned: Old.title\n")
        #expect(result.stderr.contains("is out of date (1 needs_review, 2 pruned)"))
        #expect(try directory.read(Self.file) == before)
        let entries = try FileManager.default.contentsOfDirectory(atPath: catalog)
        #expect(!entries.contains { $0.hasSuffix(".tmp") })
    }

    @Test func printfSourceStringIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try directory.write("Catalog/tips/D.json", #"{"id": "D", "title": "{n} trails", "parameters": {"n": "int"}}"#)
        let text = try directory.read(Self.file).replacingOccurrences(of: """
                "Old.title" : {
            """, with: """
                "D.title" : {
                  "extractionState" : "manual",
                  "localizations" : {
                    "en" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "%lld trails"
                      }
                    },
                    "fr" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "%lld sentiers"
                      }
                    }
                  }
                },
                "Old.title" : {
            """)
        try directory.write(Self.file, text)
        let result = tipcat("strings", "sync", "--catalog", catalog, "--check")
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(try directory.read(Self.file) == text)
    }

    @Test func newTipIsAddedWithItsComment() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try directory.write("Catalog/tips/C.json", #"{"id": "C", "title": "Café", "comment": "A \"new\" tip\nfor tests"}"#)
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": 1 added\n"))
        var expected = Strings()
        expected.cAdded = true
        #expect(try directory.read(Self.file) == Self.xcstrings(expected))
    }

    @Test func missingFileIsCreated() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try FileManager.default.removeItem(atPath: catalog + "/Localizable.xcstrings")
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        let text = try directory.read(Self.file)
        #expect(text.hasPrefix("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"A.message\" : {\n"))
        #expect(text.hasSuffix("\n  },\n  \"version\" : \"1.0\"\n}\n"))
        #expect(tipcat("strings", "sync", "--catalog", catalog, "--check").status == .success)
        #expect(tipcat("validate", "--catalog", catalog).status == .success)
    }

    @Test func catalogWithErrorsIsNotWritten() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.catalog(directory)
        try directory.write("Catalog/tips/C.json", #"{"id": "C"}"#)  // no title: an error
        let before = try directory.read(Self.file)
        let result = tipcat("strings", "sync", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stderr.contains("Localizable.xcstrings not written"))
        #expect(try directory.read(Self.file) == before)
        try FileManager.default.removeItem(atPath: catalog + "/Localizable.xcstrings")
        #expect(tipcat("strings", "sync", "--catalog", catalog).status == .failure)
        #expect(!FileManager.default.fileExists(atPath: catalog + "/Localizable.xcstrings"))
    }
}
