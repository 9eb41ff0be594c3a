import Testing
import TipcatArguments
import TipcatCore
import TipcatStore
import TipcatTemplates
@testable import TipcatCLI
import TipcatTestSupport

/// `TipcatCommand.report`: every error a command throws is printed once, here.
@Suite struct ErrorFunnelTests {
    struct Located: TipcatError {
        var message: String
        var location: TipcatCore.SourceLocation?
        var ruleID: String?
    }

    struct NotOurs: Error {}

    func report(_ error: any Error, path: [String] = ["tipcat", "validate"]) -> (ExitCode, String) {
        let err = CapturedOutput()
        let context = CommandContext(stdout: CapturedOutput(), stderr: err)
        let status = TipcatCommand.report(error, commandPath: path, parser: ArgumentParser(root: CommandTree.root), context: context)
        return (status, err.text)
    }

    @Test func aLocatedErrorPrintsLikeSwiftc() {
        let (status, text) = report(Located(message: "unknown event 'x'", location: TipcatCore.SourceLocation(file: "tips/A.json", line: 3, column: 7), ruleID: "unknown-event"))
        #expect(status == .failure)
        #expect(text == "tips/A.json:3:7: error: unknown event 'x' [unknown-event]\n")
    }

    @Test func anErrorWithoutLocationOrRule() {
        let (status, text) = report(Located(message: "no store"))
        #expect(status == .failure)
        #expect(text == "error: no store\n")
    }

    @Test func inputTextIsSanitized() {
        let (_, text) = report(Located(message: "unknown tip 'A\u{1B}]52;c;payload\u{07}\u{202E}B'", location: TipcatCore.SourceLocation(file: "a\u{1B}[2J.json", line: 1, column: 1)))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{07}"))
        #expect(!text.contains("\u{202E}"))
        #expect(text.hasPrefix("a[2J.json:1:1: error: unknown tip 'A]52;c;payloadB'"))
    }

    @Test func aTemplateErrorCarriesItsLocationAndRule() {
        let error = TemplateError(.unexpectedClosingTag(tag: "{{/x}}"), at: TipcatCore.SourceLocation(file: "tip.mustache", line: 2, column: 5))
        let (status, text) = report(error)
        #expect(status == .failure)
        #expect(text == "tip.mustache:2:5: error: '{{/x}}' closes nothing: no section is open [template-unexpected-closing-tag]\n")
    }

    @Test func usageStatusPrintsAsAUsageError() {
        let (status, text) = report(StoreError.invalidChannelName("Bad Name", reason: "spaces"), path: ["tipcat", "publish"])
        #expect(status == .usage)
        #expect(text.hasPrefix("Error: invalid channel name 'Bad Name': spaces\nUsage: tipcat publish"))
        #expect(text.hasSuffix("  See 'tipcat publish --help' for more information.\n"))
    }

    @Test func exitWithoutMessagePrintsNothing() {
        let (status, text) = report(CommandError.exit(.failure))
        #expect(status == .failure)
        #expect(text.isEmpty)
    }

    @Test func anyOtherErrorIsInternal() {
        let (status, text) = report(NotOurs())
        #expect(status == .internalError)
        #expect(text.hasPrefix("internal error: "))
    }

    @Test func endToEndUnknownTipIsSanitized() {
        let result = tipcat("render", "Nope\u{1B}[31m", "--catalog", sampleCatalogPath)
        #expect(result.status == .failure)
        #expect(result.stderr.hasPrefix("error: unknown tip 'Nope[31m'"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func endToEndABadChannelNameIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path + "/store.sqlite"
        let published = tipcat("publish", "--catalog", sampleCatalogPath, "--store", store, environment: ["USER": "tester"])
        #expect(published.status == .success, "\(published.stderr)")
        let result = tipcat("versions", "--channel", "Not A Channel", "--store", store)
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("Error: invalid channel name 'Not A Channel'"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage: tipcat versions"))
    }
}
