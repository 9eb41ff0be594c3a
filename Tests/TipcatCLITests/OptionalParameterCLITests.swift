import Foundation
import Testing
import TipcatTestSupport

/// Optional tip parameters from the command line: validate's located findings, render without a value
/// (the text's nil case), `--param name=` and a params file's null.
@Suite struct OptionalParameterCLITests {
    /// A catalog whose tip `A` has the given members; returns the catalog path.
    func catalog(_ directory: TemporaryDirectory, tip members: String, extra: [String: String] = [:]) throws -> String {
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/A.json", #"{"id": "A", "title": "Hello", "#  + members + "}")
        for (path, text) in extra { try directory.write("Catalog/" + path, text) }
        return catalog
    }

    @Test func aPlaceholderWithoutANilCaseIsLocated() throws {
        let directory = try TemporaryDirectory()
        let path = try catalog(directory, tip: #""parameters": {"name": "string?", "trail": {"id": "string", "grade": "int?"}}, "message": "Hi {name}, {trail.id} is {trail.grade, number}", "example": {"trail": {"id": "x"}}"#)
        let result = tipcat("validate", "--catalog", path, "--no-plugins")
        #expect(result.status == .failure)
        let file = path + "/tips/A.json"
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "\(file):1:126: error: '{name}' in the message of A has no text for when 'name' (string?) is nil; write one with a nil case, as in '{name, select, nil {…} other {{name}}}' [optional-placeholder]",
            "\(file):1:148: error: '{trail.grade}' in the message of A has no text for when 'trail.grade' (int?) is nil; write one with a nil case, as in '{trail.grade, select, nil {…} other {{trail.grade}}}' [optional-placeholder]",
        ], "\(result.stdout)")
    }

    /// Only a field deep in a record is optional (no parameter is): its placeholder is still found; a tip without
    /// any optional parameter or field has nothing to report.
    @Test func anOptionalFieldAloneIsFoundAndNoOptionalsNeedNoCase() throws {
        let directory = try TemporaryDirectory()
        let path = try catalog(directory, tip: #""parameters": {"trail": {"id": "string", "stats": {"grade": "int?"}}}, "message": "{trail.id} is {trail.stats.grade, number}", "example": {"trail": {"id": "x", "stats": {}}}"#)
        let result = tipcat("validate", "--catalog", path, "--no-plugins")
        #expect(result.status == .failure)
        #expect(result.stdout.contains("'{trail.stats.grade}' in the message of A has no text for when 'trail.stats.grade' (int?) is nil"), "\(result.stdout)")
        let plain = try TemporaryDirectory()
        let plainPath = try catalog(plain, tip: #""parameters": {"trail": {"id": "string"}, "count": "int"}, "message": "{trail.id}: {count, number}", "example": {"trail": {"id": "x"}, "count": 1}"#)
        let valid = tipcat("validate", "--catalog", plainPath, "--no-plugins")
        #expect(valid.status == .success && !valid.stdout.contains("optional-placeholder"), "\(valid.stdout)")
    }

    @Test func textsWithANilCaseValidate() throws {
        let directory = try TemporaryDirectory()
        let path = try catalog(directory, tip: #""parameters": {"name": "string?", "since": "date?"}, "message": "Hi {name, select, nil {there} other {{name}}}{since, select, nil {} other {, member since {since}}}", "customID": "A-{name}""#)
        let result = tipcat("validate", "--catalog", path, "--no-plugins", "--strict")
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "")
    }

    @Test func aTranslationNeedsTheNilCaseTooAndOptionalsAreOnlyForTipParameters() throws {
        let directory = try TemporaryDirectory()
        let path = try catalog(
            directory, tip: #""parameters": {"name": "string?"}, "message": "Hi {name, select, nil {there} other {{name}}}""#,
            extra: [
                "Localizable.xcstrings": #"""
                    {"sourceLanguage": "en", "version": "1.0", "strings": {"A.message": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Salut {name}"}}}}}}
                    """#,
                "parameters.json": #"{"parameters": [{"name": "nickname", "type": "string?", "default": ""}]}"#,
                "events.json": #"{"events": [{"id": "opened", "fields": {"tag": "int??"}}]}"#,
            ])
        let result = tipcat("validate", "--catalog", path, "--no-plugins")
        #expect(result.status == .failure)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(path + "/Localizable.xcstrings:1:150: error: '{name}' in the 'fr' translation of 'A.message' has no text for when 'name' is nil; write one with a nil case, as in '{name, select, nil {…} other {{name}}}' [optional-placeholder]"), "\(result.stdout)")
        #expect(lines.contains(path + "/parameters.json:1:46: error: parameter 'nickname' cannot have an optional type ('string?'): an app parameter always has a value (its default); optional types are for tip parameters [unknown-type]"), "\(result.stdout)")
        #expect(lines.contains(path + "/events.json:1:48: error: unknown type 'int??' for field 'tag' of event 'opened'; only a whole type can be optional, once, as in 'string?' or 'list<int>?' (elements of lists and sets are never optional) [unknown-type]"), "\(result.stdout)")
        #expect(lines.count == 3, "\(result.stdout)")
    }

    @Test func renderWithoutTheOptionalValueUsesTheNilCase() {
        func render(_ arguments: String...) -> RunResult {
            tipcat(["render", "FindTrailheadTip", "--catalog", sampleCatalogPath, "--style", "plain", "--color", "never"] + arguments)
        }
        let absent = render("--param", "count=2")
        #expect(absent.status == .success, "\(absent.stderr)")
        #expect(absent.stdout.hasPrefix("(signpost.right) Find the trailhead\n"), "\(absent.stdout)")
        let named = render("--param", "count=2", "--param", "trailhead=Butler Fork Trailhead", "--locale", "de")
        #expect(named.stdout.hasPrefix("(signpost.right) Butler Fork Trailhead finden\n"), "\(named.stdout)")
        // `name=` leaves it absent; an empty string is written as JSON.
        let emptied = render("--param", "count=2", "--param", "trailhead=")
        #expect(emptied.stdout.hasPrefix("(signpost.right) Find the trailhead\n"), "\(emptied.stdout)")
        let emptyString = render("--param", "count=2", "--param", #"trailhead="""#)
        #expect(emptyString.stdout.hasPrefix("(signpost.right) Find\n"), "\(emptyString.stdout)")
    }

    @Test func aParamsFileNullIsAbsent() throws {
        let directory = try TemporaryDirectory()
        try directory.write("params.json", #"{"count": 1, "trailhead": null}"#)
        let result = tipcat("render", "FindTrailheadTip", "--catalog", sampleCatalogPath, "--style", "plain", "--color", "never",
                            "--params-file", directory.file("params.json"), "--locale", "fr")
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("(signpost.right) Trouver le point de départ\n"), "\(result.stdout)")
        try directory.write("params.json", #"{"count": 1, "trailhead": "Mill B"}"#)
        let named = tipcat("render", "FindTrailheadTip", "--catalog", sampleCatalogPath, "--style", "plain", "--color", "never",
                           "--params-file", directory.file("params.json"), "--param", "trailhead=")
        #expect(named.stdout.hasPrefix("(signpost.right) Find the trailhead\n"), "\(named.stdout)")
    }
}
