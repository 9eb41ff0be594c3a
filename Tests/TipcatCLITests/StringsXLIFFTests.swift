import Foundation
import Testing
import TipcatTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `tipcat strings export` and `tipcat strings import`: XLIFF 1.2 as Xcode's .xcloc export writes it, a lossless
/// round trip, imported changes, refused files and hostile XML.
@Suite struct StringsXLIFFTests {
    static let file = "Catalog/Localizable.xcstrings"
    static let fixtures = repositoryRoot + "/Tests/Fixtures/xcstrings/"

    /// What the test's own XMLParser reads back from an exported file.
    final class Reader: NSObject, XMLParserDelegate {
        struct Unit { var id = "", source = "", target: String?, state: String?, note: String? }
        var fileAttributes: [String: String] = [:]
        var tool: [String: String] = [:]
        var namespace: String?
        var units: [Unit] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            switch name {
            case "xliff": namespace = attributes["xmlns"]
            case "file": fileAttributes = attributes
            case "tool": tool = attributes
            case "trans-unit": units.append(Unit(id: attributes["id"] ?? ""))
            case "target": units[units.count - 1].state = attributes["state"]
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "source": units[units.count - 1].source = text
            case "target": units[units.count - 1].target = text
            case "note": units[units.count - 1].note = text
            default: break
            }
        }

        static func read(_ path: String) throws -> Reader {
            let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
            let reader = Reader()
            parser.delegate = reader
            #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
            return reader
        }
    }

    /// The catalog's locales other than English in `xcstrings`, as `--locale` arguments.
    static func localeArguments(_ path: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let strings = object?["strings"] as? [String: Any] ?? [:]
        var locales = Set<String>()
        for entry in strings.values {
            locales.formUnion(((entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]).keys)
        }
        locales.remove("en")
        return locales.sorted().flatMap { ["--locale", $0] }
    }

    @Test func exportOfTheSampleForFrench() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let output = directory.file("Localizations")
        let result = tipcat("strings", "export", "--catalog", catalog, "--locale", "fr", "-o", output)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "wrote \(output)/fr.xliff: 38 units, 13 with a target\n")
        let reader = try Reader.read(output + "/fr.xliff")
        #expect(reader.namespace == "urn:oasis:names:tc:xliff:document:1.2")
        #expect(reader.fileAttributes == ["original": "Localizable.xcstrings", "source-language": "en", "target-language": "fr",
                                          "datatype": "plaintext"])
        #expect(reader.tool["tool-id"] == "tipcat")
        #expect(reader.units.count == 38)
        #expect(reader.units.map(\.id) == reader.units.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let unit = try #require(reader.units.first { $0.id == "ExposureRatingTip.message" })
        #expect(unit.source == "The exposure rating shows how much of the trail is out in the open, without shade or shelter.")
        #expect(unit.target == "L’indice d’exposition indique quelle part du sentier est à découvert, sans ombre ni abri.")
        #expect(unit.state == "translated")
        #expect(unit.note?.hasPrefix("Inline tip above the exposure rating on a trail's detail screen.") == true)
        let untranslated = try #require(reader.units.first { $0.id == "ComboTip.title" })
        #expect(untranslated.source == "Save as a Favorite")
        #expect(untranslated.target == nil)
        #expect(reader.units.filter { $0.target != nil }.count == 13)
    }

    @Test func exportThenImportOfTheSampleIsLossless() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file)))
        let output = directory.file("L")
        let export = tipcat(["strings", "export", "--catalog", catalog, "-o", output]
                            + (try Self.localeArguments(directory.file(Self.file))))
        #expect(export.status == .success, "\(export.stdout)\(export.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted().map { output + "/" + $0 }
        #expect(!files.isEmpty)
        let result = tipcat(["strings", "import", "--catalog", catalog] + files)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("fr (\(output)/fr.xliff): 0 added, 0 changed, 13 unchanged"))
        #expect(result.stdout.hasSuffix("Localizable.xcstrings is unchanged\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file))) == before)
    }

    @Test(arguments: ["plurals.xcstrings", "device-variations.xcstrings"])
    func exportThenImportOfAFixtureIsLossless(fixture: String) throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write(Self.file, try String(contentsOfFile: Self.fixtures + fixture, encoding: .utf8))
        try directory.edit("Catalog/catalog.json", replacing: #""pl""#, with: #""pl", "es", "it", "pt""#)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file)))
        let output = directory.file("L")
        // fr-CA is not a supported locale of the sample: it cannot be imported.
        let locales = try Self.localeArguments(directory.file(Self.file)).split(separator: "--locale")
            .flatMap { $0.first == "fr-CA" ? [] : ["--locale"] + $0 }
        let export = tipcat(["strings", "export", "--catalog", catalog, "-o", output] + locales)
        #expect(export.status == .success, "\(export.stdout)\(export.stderr)")
        let reader = try Reader.read(output + "/fr.xliff")
        let ids = Set(reader.units.map(\.id))
        if fixture == "plurals.xcstrings" {
            #expect(ids.isSuperset(of: ["FindTrailheadTip.message|==|plural.one", "FindTrailheadTip.message|==|plural.other"]))
            let one = try #require(reader.units.first { $0.id == "FindTrailheadTip.message|==|plural.one" })
            #expect(one.source == "There's # trail near you. Tap Directions to get to its trailhead.")
        } else {
            #expect(ids.isSuperset(of: ["FindTrailheadTip.message|==|device.mac", "FindTrailheadTip.message|==|device.iphone.plural.one"]))
            // Each form of a substitution is its own unit, named as Xcode names it.
            #expect(ids.isSuperset(of: ["FindTrailheadTip.message|==|device.mac.substitutions.trails.plural.one",
                                        "FindTrailheadTip.message|==|device.mac.substitutions.trails.plural.other"]), "\(ids.sorted())")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted().map { output + "/" + $0 }
        let result = tipcat(["strings", "import", "--catalog", catalog] + files)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains(" 1 changed") && !result.stdout.contains(" 1 added"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file))) == before)
    }

    /// Every locale of the sample, of the plural and of the device-variation fixture, exported byte for byte as the
    /// files in Tests/Fixtures/xliff-golden (the tool version aside); one tip comment holds every character XML
    /// escapes, a tab and a control character. Re-record with TIPCAT_RECORD_GOLDEN=1.
    @Test(arguments: ["sample", "plurals.xcstrings", "device-variations.xcstrings"])
    func exportMatchesTheGoldenFiles(strings: String) throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        if strings != "sample" {
            try directory.write(Self.file, try String(contentsOfFile: Self.fixtures + strings, encoding: .utf8))
            try directory.edit("Catalog/catalog.json", replacing: #""pl""#, with: #""pl", "es", "it", "pt", "fr-CA""#)
        }
        try directory.edit("Catalog/tips/ComboTip.json", replacing: "the favorite button is a star.",
                           with: #"the \"favorite\" <button> & it's a star;\tend\u0007\r\n."#)
        let output = directory.file("L")
        let export = tipcat(["strings", "export", "--catalog", catalog, "-o", output] + (try Self.localeArguments(directory.file(Self.file))))
        #expect(export.status == .success, "\(export.stdout)\(export.stderr)")
        let golden = repositoryRoot + "/Tests/Fixtures/xliff-golden/" + (strings as NSString).deletingPathExtension
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(files.count >= 3)
        if ProcessInfo.processInfo.environment["TIPCAT_RECORD_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(atPath: golden)
            try FileManager.default.createDirectory(atPath: golden, withIntermediateDirectories: true)
            for file in files { try FileManager.default.copyItem(atPath: output + "/" + file, toPath: golden + "/" + file) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: golden).sorted() == files)
        let version = try Regex(#"tool-version="[^"]*""#)
        for file in files {
            let written = try String(contentsOfFile: output + "/" + file, encoding: .utf8).replacing(version, with: "tool-version=\"\"")
            let expected = try String(contentsOfFile: golden + "/" + file, encoding: .utf8).replacing(version, with: "tool-version=\"\"")
            #expect(written == expected, "\(file): re-record with TIPCAT_RECORD_GOLDEN=1")
        }
    }

    /// The sample exported for French into `<directory>/L/fr.xliff`; returns the catalog path.
    func exported(_ directory: TemporaryDirectory) throws -> String {
        let catalog = try directory.sampleCatalog()
        let export = tipcat("strings", "export", "--catalog", catalog, "--locale", "fr", "-o", directory.file("L"))
        #expect(export.status == .success, "\(export.stdout)\(export.stderr)")
        return catalog
    }

    @Test func textWithoutAnEntryNeedsSyncFirst() throws {
        let directory = try TemporaryDirectory()
        let catalog = try exported(directory)
        try directory.edit("L/fr.xliff", replacing: "<source>Save as a Favorite</source>",
                           with: "<source>Save as a Favorite</source><target>Favori</target>")
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("L/fr.xliff"))
        #expect(result.status == .failure)
        #expect(result.stderr.contains("has no entry for ComboTip.title; run 'tipcat strings sync' first"), "\(result.stderr)")
    }

    @Test func changedTargetIsImported() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        #expect(tipcat("strings", "sync", "--catalog", catalog).status == .success)
        let synced = try directory.read(Self.file)
        _ = try exported(directory)
        try directory.edit("L/fr.xliff", replacing: "<target state=\"translated\">L’indice", with: "<target state=\"translated\">Le nouvel indice")
        // A new French title, to be reviewed.
        try directory.edit("L/fr.xliff", replacing: "<source>Save as a Favorite</source>",
                           with: "<source>Save as a Favorite</source>\n        <target state=\"needs-review-translation\">Favori &amp; &lt;étoile&gt;</target>")
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("L/fr.xliff"))
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("fr (\(directory.file("L/fr.xliff"))): 1 added, 1 changed, 12 unchanged"), "\(result.stdout)")
        let text = try directory.read(Self.file)
        #expect(text.contains("\"value\" : \"Le nouvel indice d’exposition indique"))
        #expect(text.contains("""
                    "fr" : {
                      "stringUnit" : {
                        "state" : "needs_review",
                        "value" : "Favori & <étoile>"
                      }
                    }
            """))
        // Only those two strings changed: the rest of the file is as it was.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let before = synced.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == before.count + 6)
        #expect(Set(lines).subtracting(before).sorted() == [
            #"            "state" : "needs_review","#,
            #"            "value" : "Favori & <étoile>""#,
            #"            "value" : "Le nouvel indice d’exposition indique quelle part du sentier est à découvert, sans ombre ni abri.""#,
        ])
    }

    /// Character and entity references are read in attribute values as in text, a CDATA section is text, and an
    /// element may have any number of attributes.
    @Test func referencesInAttributesAndCDATAAreRead() throws {
        let directory = try TemporaryDirectory()
        let catalog = try exported(directory)
        try directory.edit("L/fr.xliff", replacing: #"target-language="fr""#, with: #"target-language="f&#x72;""#)
        // The id after a hundred other attributes (namespaced ones among them).
        let others = (0..<100).map { #"x:a\#($0)="\#($0)""# }.joined(separator: " ")
        try directory.edit("L/fr.xliff", replacing: #"<trans-unit id="ComboTip.title""#,
                           with: #"<trans-unit xmlns:x="urn:x" \#(others) id="ComboTip&#46;title""#)
        try directory.edit("L/fr.xliff", replacing: "<target state=\"translated\">L’indice",
                           with: "<target state=\"trans&#108;ated\"><![CDATA[<Un> & ]]>L’indice")
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("L/fr.xliff"))
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("fr (\(directory.file("L/fr.xliff"))): 0 added, 1 changed, 12 unchanged"), "\(result.stdout)")
        #expect(try directory.read(Self.file).contains(#""value" : "<Un> & L’indice d’exposition"#))
        // The five predefined entities in an attribute value, as the message quoting it shows.
        try refused("found 1 <file> elements (the first for 'a&b<c>\"d\'.json')") {
            try $0.edit("L/fr.xliff", replacing: #"original="Localizable.xcstrings""#, with: #"original="a&amp;b&lt;c&gt;&quot;d&apos;.json""#)
        }
    }

    /// libxml2 (with ICU, zlib and liblzma) is loaded by the first XML document a process reads, never linked:
    /// other commands do not load or relocate it at start-up.
    @Test func libxml2IsLoadedOnlyToReadXML() throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        let directory = try TemporaryDirectory()
        let catalog = try exported(directory)
        let validate = try tipcatProcess(["validate", "--catalog", catalog], timeout: 120, environment: ["LD_DEBUG": "files"])
        let imported = try tipcatProcess(["strings", "import", "--catalog", catalog, directory.file("L/fr.xliff")], timeout: 120,
                                         environment: ["LD_DEBUG": "files"])
        #expect(validate.result?.status == .success, "\(validate.result?.stderr.suffix(2000) ?? "timed out")")
        #expect(imported.result?.status == .success, "\(imported.result?.stderr.suffix(2000) ?? "timed out")")
        // glibc's loader names every library it opens on stderr under LD_DEBUG=files.
        let validateLoads = validate.result?.stderr ?? ""
        #expect(validateLoads.contains("file=libsqlite3"), "LD_DEBUG output expected from \(executable)")
        #expect(!validateLoads.contains("libxml2"))
        #expect(!validateLoads.contains("libicu"))
        #expect(imported.result?.stderr.contains("file=libxml2.so.2") == true)
    }

    @Test func malformedXMLIsNamedByTheParser() throws {
        try refused("fr.xliff:3:51: error: malformed XML: Opening and ending tag mismatch: source line 3 and target; nothing imported") {
            try $0.write("L/fr.xliff", """
                <?xml version="1.0"?>
                <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="fr"><body>
                <trans-unit id="ComboTip.title"><source>x</target></trans-unit></body></file></xliff>
                """)
        }
    }

    @Test func xclocIsReadFromItsLocalizedContents() throws {
        let directory = try TemporaryDirectory()
        let catalog = try exported(directory)
        try directory.edit("L/fr.xliff", replacing: "<target state=\"translated\">L’indice", with: "<target state=\"translated\">Un indice")
        try directory.write("fr.xcloc/Localized Contents/fr.xliff", try directory.read("L/fr.xliff"))
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("fr.xcloc"))
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": 0 added, 1 changed, 12 unchanged"))
        #expect(try directory.read(Self.file).contains("\"value\" : \"Un indice d’exposition"))
    }

    /// Imports `L/fr.xliff` after `edit`; expects exit 1, `expected` on stderr and the String Catalog untouched.
    func refused(_ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
                 edit: (TemporaryDirectory) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let catalog = try exported(directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file)))
        try edit(directory)
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("L/fr.xliff"))
        #expect(result.status == .failure, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(expected), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file))) == before, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: catalog + "/.Localizable.xcstrings.\(ProcessInfo.processInfo.processIdentifier).tmp"),
                sourceLocation: sourceLocation)
    }

    @Test func wrongSourceLanguageIsRefused() throws {
        try refused("L/fr.xliff:3:104: error: source-language 'de' is not the catalog's source language 'en'; nothing imported") {
            try $0.edit("L/fr.xliff", replacing: #"source-language="en""#, with: #"source-language="de""#)
        }
    }

    @Test func unsupportedLocaleIsRefused() throws {
        try refused("error: sv is not a supported locale of the catalog") {
            try $0.edit("L/fr.xliff", replacing: #"target-language="fr""#, with: #"target-language="sv""#)
        }
    }

    @Test func unknownKeysAreListedAndRefused() throws {
        try refused("fr.xliff: 2 trans-unit ids matching no tip text") { directory in
            try directory.edit("L/fr.xliff", replacing: #"id="ComboTip.title""#, with: #"id="NoSuchTip.title""#)
            try directory.edit("L/fr.xliff", replacing: #"id="ComboTip.message""#, with: #"id="ComboTip.message|==|plural.lots""#)
        }
        let directory = try TemporaryDirectory()
        let catalog = try exported(directory)
        try directory.edit("L/fr.xliff", replacing: #"id="ComboTip.title""#, with: #"id="NoSuchTip.title""#)
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("L/fr.xliff"))
        #expect(result.stderr.contains("unknown key: \(directory.file("L/fr.xliff")):"))
        #expect(result.stderr.contains(": 'NoSuchTip.title'"))
    }

    /// A hostile document in place of `L/fr.xliff`: refused with `fr.xliff:LINE:COL: error: …`, nothing written.
    @Test(arguments: [
        ("billion laughs", """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="fr"><body>
            <trans-unit id="ComboTip.title"><source>&lol3;</source><target>&lol3;</target></trans-unit></body></file></xliff>
            """, "fr.xliff:2:1: error: a DOCTYPE or entity declaration is not allowed"),
        ("external entity", """
            <?xml version="1.0"?>
            <!DOCTYPE xliff [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
            <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="fr"><body>
            <trans-unit id="ComboTip.title"><source>x</source><target>&x;</target></trans-unit></body></file></xliff>
            """, "fr.xliff:2:1: error: a DOCTYPE or entity declaration is not allowed"),
        ("deep nesting", "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">" + String(repeating: "<g>", count: 10_000)
            + String(repeating: "</g>", count: 10_000) + "</xliff>\n", "fr.xliff:2:"),
        ("malformed", """
            <?xml version="1.0"?>
            <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="fr"><body>
            <trans-unit id="ComboTip.title"><source>x</target></trans-unit></body></file></xliff>
            """, "fr.xliff:3:"),
        ("entity reference without a DTD", """
            <?xml version="1.0"?>
            <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="fr"><body>
            <trans-unit id="ComboTip.title"><source>x</source><target>&x;</target></trans-unit></body></file></xliff>
            """, "fr.xliff:3:"),
    ])
    func hostileXMLIsRefused(name: String, document: String, expected: String) throws {
        try refused(expected) { try $0.write("L/fr.xliff", document) }
    }

    /// Each refusal while parsing names what was refused, where it is.
    @Test func anUndefinedEntityIsNamedWhereItIs() throws {
        try refused("fr.xliff:3:62: error: the entity reference '&x;' is not allowed in XLIFF (entities are never resolved); nothing imported") {
            try $0.write("L/fr.xliff", """
                <?xml version="1.0"?>
                <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="fr"><body>
                <trans-unit id="ComboTip.title"><source>x</source><target>&x;</target></trans-unit></body></file></xliff>
                """)
        }
    }

    @Test func deepNestingIsBoundedByTheReader() throws {
        try refused("error: elements are nested deeper than 64 levels; nothing imported") {
            try $0.write("L/fr.xliff", "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">" + String(repeating: "<g>", count: 10_000)
                         + String(repeating: "</g>", count: 10_000) + "</xliff>\n")
        }
    }

    @Test func invalidUTF8IsRefused() throws {
        try refused("fr.xliff:3:42: error: invalid UTF-8 (byte 0xFF); nothing imported") { directory in
            var bytes = Array(try directory.read("L/fr.xliff").utf8)
            let lines = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
            bytes[lines[1] + 42] = 0xFF
            try directory.write("L/fr.xliff", Data(bytes))
        }
    }

    @Test func translationOfAnOutdatedSourceIsImportedForReview() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        #expect(tipcat("strings", "sync", "--catalog", catalog).status == .success)
        _ = try exported(directory)
        // The writer changes the text after the export; sync marks the French string for review.
        try directory.edit("Catalog/tips/ExposureRatingTip.json", replacing: "The exposure rating shows", with: "The exposure rating tells")
        #expect(tipcat("strings", "sync", "--catalog", catalog).status == .success)
        // The translator, working from the old source, sends a "translated" string back.
        try directory.edit("L/fr.xliff", replacing: "<target state=\"translated\">L’indice", with: "<target state=\"translated\">Le nouvel indice")
        let result = tipcat("strings", "import", "--catalog", catalog, directory.file("L/fr.xliff"))
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(", 1 translated from an outdated source (imported as needs_review)"), "\(result.stdout)")
        #expect(result.stderr.contains("'ExposureRatingTip.message' was translated from \"The exposure rating shows"), "\(result.stderr)")
        #expect(result.stderr.contains("the text is now \"The exposure rating tells"))
        let text = try directory.read(Self.file)
        #expect(text.contains("\"state\" : \"needs_review\",\n            \"value\" : \"Le nouvel indice"), "\(text)")
    }

    /// A locale that gets its first form of a substitution takes the substitution's argNum and formatSpecifier from
    /// another localization of the key.
    @Test func aNewLocaleOfASubstitutionGetsItsFormat() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write(Self.file, try String(contentsOfFile: Self.fixtures + "device-variations.xcstrings", encoding: .utf8))
        let output = directory.file("L")
        let export = tipcat(["strings", "export", "--catalog", catalog, "-o", output, "--locale", "de"])
        #expect(export.status == .success, "\(export.stdout)\(export.stderr)")
        try directory.edit("L/de.xliff", replacing: #"target-language="de""#, with: #"target-language="ja""#)
        let result = tipcat(["strings", "import", "--catalog", catalog, directory.file("L/de.xliff")])
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.file(Self.file)))) as? [String: Any]
        let strings = object?["strings"] as? [String: Any]
        let message = (strings?["FindTrailheadTip.message"] as? [String: Any])?["localizations"] as? [String: Any]
        let trails = ((message?["ja"] as? [String: Any])?["substitutions"] as? [String: Any])?["trails"] as? [String: Any]
        #expect(trails?["argNum"] as? Int == 1)
        #expect(trails?["formatSpecifier"] as? String == "lld")
        #expect(((trails?["variations"] as? [String: Any])?["plural"] as? [String: Any])?["other"] != nil)
    }
}
