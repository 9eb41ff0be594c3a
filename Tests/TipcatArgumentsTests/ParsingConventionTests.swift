import Testing
import TipcatArguments

/// Each test is named after an ArgumentParser parsing convention it checks.
@Suite struct ParsingConventionTests {
    @Test func optionValueInTheNextWord() throws {
        let parsed = try #require(try run(["validate", "--format", "json"]))
        #expect(parsed.value("format") == "json")
        #expect(parsed.commandPath == ["tipcat", "validate"])
    }

    @Test func optionValueAfterEqualsSign() throws {
        let parsed = try #require(try run(["validate", "--format=github", "--catalog=My Tips"]))
        #expect(parsed.value("format") == "github")
        #expect(parsed.value("catalog") == "My Tips")
    }

    @Test func emptyValueAfterEqualsSignIsAValue() throws {
        let parsed = try #require(try run(["validate", "--note="]))
        #expect(parsed.values("note") == [""])
    }

    @Test func shortOptionTakesTheNextWord() throws {
        let parsed = try #require(try run(["validate", "-f", "json"]))
        #expect(parsed.value("format") == "json")
    }

    @Test func combinedShortFlags() throws {
        let parsed = try #require(try run(["validate", "-sv"]))
        #expect(parsed.flag("strict"))
        #expect(parsed.flag("verbose"))
        #expect(!parsed.flag("quiet"))
    }

    @Test func combinedShortFlagsEndingInAnOptionTakeTheNextWord() throws {
        let parsed = try #require(try run(["validate", "-sf", "json"]))
        #expect(parsed.flag("strict"))
        #expect(parsed.value("format") == "json")
    }

    @Test func repeatedFlagIsCounted() throws {
        let parsed = try #require(try run(["validate", "-vvv", "--verbose"]))
        #expect(parsed.flagCount("verbose") == 4)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try #require(try run(["engine", "donate", "--", "--strict", "-h", "--"]))
        #expect(parsed.positional("event") == "--strict")
        #expect(parsed.values("tip-id") == ["-h", "--"])
    }

    @Test func optionsMayComeBeforeAndAfterPositionals() throws {
        let parsed = try #require(try run(["engine", "donate", "--width", "100", "launch", "t1", "--catalog-file", "a.json", "t2"]))
        #expect(parsed.positional("event") == "launch")
        #expect(parsed.values("tip-id") == ["t1", "t2"])
        #expect(parsed.value("width") == "100")
        #expect(parsed.value("catalog-file") == "a.json")
    }

    @Test func repeatedOptionsCollectAndTheLastOneWins() throws {
        let parsed = try #require(try run(["validate", "--note", "a", "--format", "json", "--note=b", "-f", "github"]))
        #expect(parsed.values("note") == ["a", "b"])
        #expect(parsed.value("note") == "b")
        #expect(parsed.value("format") == "github")
        #expect(parsed.values("format") == ["json", "github"])
    }

    @Test func defaultsApplyWhenAbsent() throws {
        let parsed = try #require(try run(["validate"]))
        #expect(parsed.value("format") == "text")
        #expect(parsed.value("catalog") == "Catalog")
        #expect(parsed.values("catalog") == ["Catalog"])
        #expect(parsed.value("note") == nil)
        #expect(parsed.values("note").isEmpty)
        #expect(!parsed.flag("strict"))
    }

    @Test func negativeNumberIsAnOptionValue() throws {
        let parsed = try #require(try run(["engine", "donate", "launch", "--width", "-3"]))
        #expect(parsed.value("width") == "-3")
        let decimal = try #require(try run(["engine", "donate", "launch", "--width", "-0.5"]))
        #expect(decimal.value("width") == "-0.5")
    }

    @Test func negativeNumberIsAPositionalWhenItCannotBeAnOption() throws {
        let parsed = try #require(try run(["engine", "donate", "-5", "-12"]))
        #expect(parsed.positional("event") == "-5")
        #expect(parsed.values("tip-id") == ["-12"])
    }

    @Test func dashNumberIsAnOptionWhenADigitShortNameExists() throws {
        let root = CommandSpec(name: "list", arguments: [
            .flag("one-per-line", short: "1"), .positional("items", required: false, repeating: true),
        ])
        let parsed = try #require(try run(["-1", "x"], parser: ArgumentParser(root: root)))
        #expect(parsed.flag("one-per-line"))
        #expect(parsed.values("items") == ["x"])
    }

    @Test func singleDashAloneIsAValue() throws {
        let parsed = try #require(try run(["engine", "donate", "-"]))
        #expect(parsed.positional("event") == "-")
    }

    @Test func helpFlagAnywhereShowsHelpForThatCommand() throws {
        let validateHelp = SampleTree.parser.helpText(for: ["tipcat", "validate"])
        #expect(try help(["validate", "--strict", "-h"]) == validateHelp)
        #expect(try help(["validate", "--help", "--strict"]) == validateHelp)
        #expect(try help(["validate", "-sh"]) == validateHelp)
        #expect(try help(["validate", "-help"]) == validateHelp)
        #expect(try help(["--help"]) == SampleTree.parser.helpText(for: ["tipcat"]))
        #expect(try help(["engine", "donate", "-h"]) == SampleTree.parser.helpText(for: ["tipcat", "engine", "donate"]))
    }

    @Test func helpFlagWinsOverParseErrors() throws {
        #expect(try help(["validate", "--nope", "--format", "xml", "extra", "--help"])
            == SampleTree.parser.helpText(for: ["tipcat", "validate"]))
    }

    @Test func helpAfterDoubleDashIsAValue() throws {
        let parsed = try #require(try run(["engine", "donate", "--", "-h"]))
        #expect(parsed.positional("event") == "-h")
    }

    @Test func helpSubcommandShowsTheNamedCommandsHelp() throws {
        let parser = SampleTree.parser
        #expect(try help(["help", "validate"]) == parser.helpText(for: ["tipcat", "validate"]))
        #expect(try help(["help", "engine", "donate"]) == parser.helpText(for: ["tipcat", "engine", "donate"]))
        #expect(try help(["help"]) == parser.helpText(for: ["tipcat"]))
        // ArgumentParser ignores extra help flags and stops at the first name that is not a subcommand.
        #expect(try help(["help", "validate", "-h"]) == parser.helpText(for: ["tipcat", "validate"]))
        #expect(try help(["help", "validate", "--help"]) == parser.helpText(for: ["tipcat", "validate"]))
        #expect(try help(["help", "engine", "nope", "donate"]) == parser.helpText(for: ["tipcat", "engine"]))
    }

    @Test func helpSubcommandExistsOnlyAtTheRoot() {
        let error = usageError(["engine", "help"])
        #expect(error?.message == "Unexpected argument 'help'")
    }

    @Test func versionFlagPrintsTheRootVersion() throws {
        #expect(try SampleTree.parser.parse(["--version"]) == .version("1.2.3"))
        // ArgumentParser accepts --version on every command below one that has a version.
        #expect(try SampleTree.parser.parse(["engine", "donate", "--version"]) == .version("1.2.3"))
    }

    @Test func versionFlagIsUnknownWithoutAVersion() {
        let parser = ArgumentParser(root: CommandSpec(name: "tool", arguments: [.flag("verbose")]))
        #expect(usageError(["--version"], parser: parser)?.message == "Unknown option '--version'")
        #expect(!(parser.helpText(for: ["tool"]) ?? "").contains("--version"))
    }

    @Test func commandWithSubcommandsAndNoneChosenShowsItsHelp() throws {
        #expect(try help([]) == SampleTree.parser.helpText(for: ["tipcat"]))
        #expect(try help(["-q"]) == SampleTree.parser.helpText(for: ["tipcat"]))
        #expect(try help(["engine"]) == SampleTree.parser.helpText(for: ["tipcat", "engine"]))
    }

    @Test func parentOptionsAreAcceptedBeforeAndAfterTheSubcommand() throws {
        let before = try #require(try run(["-q", "validate", "--strict"]))
        #expect(before.flag("quiet") && before.flag("strict"))
        #expect(before.commandPath == ["tipcat", "validate"])
        let after = try #require(try run(["validate", "--quiet"]))
        #expect(after.flag("quiet"))
    }

    @Test func hiddenCommandsAndArgumentsStillParse() throws {
        let secret = try #require(try run(["secret"]))
        #expect(secret.commandPath == ["tipcat", "secret"])
        let parsed = try #require(try run(["validate", "--debug-internals"]))
        #expect(parsed.flag("debug-internals"))
    }

    @Test func nestedSubcommandPath() throws {
        let parsed = try #require(try run(["engine", "donate", "launch"]))
        #expect(parsed.commandPath == ["tipcat", "engine", "donate"])
        #expect(parsed.values("tip-id").isEmpty)
    }

    @Test func generateCompletionScriptOption() throws {
        #expect(try help(["--generate-completion-script", "bash"]) == CompletionScript.generate(for: SampleTree.root, shell: .bash))
        #expect(try help(["--generate-completion-script=fish"]) == CompletionScript.generate(for: SampleTree.root, shell: .fish))
        #expect(try help(["validate", "--generate-completion-script", "zsh"]) == CompletionScript.generate(for: SampleTree.root, shell: .zsh))
    }

    @Test func parsedArgumentsCanBeBuiltByHand() {
        let parsed = ParsedArguments(
            commandPath: ["tipcat", "validate"], flagCounts: ["strict": 1], optionValues: ["format": ["json"]],
            defaults: ["catalog": "Catalog"])
        #expect(parsed.flag("strict"))
        #expect(parsed.value("format") == "json")
        #expect(parsed.value("catalog") == "Catalog")
        #expect(parsed.positional("dir") == nil)
    }
}
