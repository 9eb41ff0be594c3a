import Testing
import TipcatArguments

/// Golden help screens in ArgumentParser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS,
/// labels indented by 2, help text aligned at column 26, wrapped to 80 columns.
@Suite struct HelpFormatTests {
    let parser = SampleTree.parser

    @Test func rootHelpListsSubcommandsAndTheHelpSubcommandHint() {
        #expect(parser.helpText(for: ["tipcat"]) == """
            OVERVIEW: Author and check TipKit-style tip catalogs.

            USAGE: tipcat [--quiet] <subcommand>

            OPTIONS:
              -q, --quiet             Print errors only.
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              validate                Check a catalog and report every problem.
              engine                  Simulate the eligibility engine.

              See 'tipcat help <subcommand>' for detailed help.
            """)
    }

    @Test func leafHelpWithDiscussionDefaultsAllowedValuesAndExamples() {
        #expect(parser.helpText(for: ["tipcat", "validate"]) == """
            OVERVIEW: Check a catalog and report every problem.

            Reads every file of the catalog and prints one diagnostic per problem, with its
            file, line and column, in the chosen format.

            USAGE: tipcat validate [--catalog <dir>] [--format <format>] [--strict] [--note <note> ...] [--verbose ...]

            OPTIONS:
              --catalog <dir>         The catalog directory. (default: Catalog)
              -f, --format <format>   The output format. (values: text, json, github;
                                      default: text)
              -s, --strict            Treat warnings as errors.
              --note <note>           A note to attach to the report; may be repeated.
              -v, --verbose           Print more details; repeat for even more.
              --version               Show the version.
              -h, --help              Show help information.

            EXAMPLES:
              tipcat validate --strict
              tipcat validate --catalog Tips --format github

            """)
    }

    @Test func nestedGroupHelpHintNamesThePath() {
        #expect(parser.helpText(for: ["tipcat", "engine"]) == """
            OVERVIEW: Simulate the eligibility engine.

            USAGE: tipcat engine <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              donate                  Donate an event and show which tips become eligible.

              See 'tipcat help engine <subcommand>' for detailed help.
            """)
    }

    @Test func positionalArgumentsSectionAndRepeatingUsage() {
        #expect(parser.helpText(for: ["tipcat", "engine", "donate"]) == """
            OVERVIEW: Donate an event and show which tips become eligible.

            USAGE: tipcat engine donate <event> [<tip-id> ...] [--width <width>] [--catalog-file <file>]

            ARGUMENTS:
              <event>                 The event identifier.
              <tip-id>                Only consider these tips.

            OPTIONS:
              --width <width>         Column width for the report. (default: 80)
              --catalog-file <file>   A single catalog file.
              --version               Show the version.
              -h, --help              Show help information.

            """)
    }

    @Test func labelsReachingTheHelpColumnPutTheHelpOnTheNextLine() {
        let root = CommandSpec(name: "tool", arguments: [
            .option("a-rather-long-option-name", valueName: "value", help: "Explained below the label."),
            .option("no-help-at-all", valueName: "x"),
        ])
        #expect(ArgumentParser(root: root).helpText(for: ["tool"]) == """
            USAGE: tool [--a-rather-long-option-name <value>] [--no-help-at-all <x>]

            OPTIONS:
              --a-rather-long-option-name <value>
                                      Explained below the label.
              --no-help-at-all <x>
              -h, --help              Show help information.

            """)
    }

    @Test func longHelpWrapsAtEightyColumnsUnderTheHelpColumn() throws {
        let sentence = "This option has a long explanation that certainly does not fit on one line of a terminal that is eighty columns wide."
        let root = CommandSpec(name: "tool", abstract: sentence + " " + sentence, arguments: [.flag("wordy", help: sentence)])
        let text = try #require(ArgumentParser(root: root).helpText(for: ["tool"]))
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "line too long: \(line)")
        }
        #expect(text.contains("""
              --wordy                 This option has a long explanation that certainly
                                      does not fit on one line of a terminal that is eighty
                                      columns wide.
            """))
        #expect(text.hasPrefix("""
            OVERVIEW: This option has a long explanation that certainly does not fit on one
            line of a terminal that is eighty columns wide. This option has a long
            """))
    }

    @Test func customWidthChangesWrapping() throws {
        let root = CommandSpec(name: "tool", arguments: [.flag("wordy", help: "Three short words here.")])
        let text = try #require(ArgumentParser(root: root, width: 40).helpText(for: ["tool"]))
        #expect(text.contains("  --wordy                 Three short\n                          words here.\n"))
    }

    @Test func hiddenArgumentsAndSubcommandsAreLeftOut() throws {
        let rootHelp = try #require(parser.helpText(for: ["tipcat"]))
        #expect(!rootHelp.contains("secret"))
        let validateHelp = try #require(parser.helpText(for: ["tipcat", "validate"]))
        #expect(!validateHelp.contains("debug-internals"))
        #expect(!parser.usage(for: ["tipcat", "validate"]).contains("debug-internals"))
    }

    @Test func usageOfRequiredOptionsAndRepeatingPositionals() {
        let root = CommandSpec(name: "tool", arguments: [
            .option("name", help: "Required.", required: true),
            .positional("files", required: true, repeating: true),
            .positional("extra", required: false),
        ])
        #expect(ArgumentParser(root: root).usage(for: []) == "tool --name <name> <files> ... [<extra>]")
    }

    @Test func usageCollapsesOptionalArgumentsBeyondTwelve() {
        var arguments: [ArgumentSpec] = (1...13).map { .flag("flag\($0)") }
        #expect(ArgumentParser(root: CommandSpec(name: "tool", arguments: arguments)).usage(for: []) == "tool <options>")
        arguments.append(.positional("input"))
        #expect(ArgumentParser(root: CommandSpec(name: "tool", arguments: arguments)).usage(for: []) == "tool [<options>] <input>")
    }

    @Test func helpTextPathMayOmitTheRootName() {
        #expect(parser.helpText(for: ["validate"]) == parser.helpText(for: ["tipcat", "validate"]))
        #expect(parser.helpText(for: []) == parser.helpText(for: ["tipcat"]))
        #expect(parser.helpText(for: ["tipcat", "nope"]) == nil)
        #expect(parser.helpText(for: ["secret"]) != nil)
    }

    @Test func usageForAPath() {
        #expect(parser.usage(for: ["tipcat"]) == "tipcat [--quiet] <subcommand>")
        #expect(parser.usage(for: ["tipcat", "engine", "donate"])
            == "tipcat engine donate <event> [<tip-id> ...] [--width <width>] [--catalog-file <file>]")
        #expect(parser.usage(for: ["tipcat", "engine", "nope"]) == "tipcat engine <subcommand>")
    }

    @Test func discussionWithoutAbstract() {
        let root = CommandSpec(name: "tool", discussion: "Only a discussion.")
        #expect(ArgumentParser(root: root).helpText(for: []) == """
            OVERVIEW: 
            Only a discussion.

            USAGE: tool

            OPTIONS:
              -h, --help              Show help information.

            """)
    }
}
