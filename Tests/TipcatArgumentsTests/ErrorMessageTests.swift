import Testing
import TipcatArguments

/// Error texts as ArgumentParser prints them: `Error: …`, an optional `Help:` line, `Usage: …`,
/// and `  See '<command> --help' for more information.`; exit status 64.
@Suite struct ErrorMessageTests {
    static let validateUsage = """
        Usage: tipcat validate [--catalog <dir>] [--format <format>] [--strict] [--note <note> ...] [--verbose ...]
          See 'tipcat validate --help' for more information.
        """

    @Test func unknownOptionSuggestsAClosePlusName() throws {
        let error = try #require(usageError(["validate", "--fromat", "json"]))
        #expect(error.description == "Error: Unknown option '--fromat'. Did you mean '--format'?\n" + Self.validateUsage)
        #expect(error.exitCode == 64)
        #expect(error.commandPath == ["tipcat", "validate"])
    }

    @Test func unknownOptionWithoutCloseMatch() throws {
        let error = try #require(usageError(["--nope"]))
        #expect(error.description == """
            Error: Unknown option '--nope'
            Usage: tipcat [--quiet] <subcommand>
              See 'tipcat --help' for more information.
            """)
    }

    @Test func unknownShortOptionGetsNoSuggestion() throws {
        let error = try #require(usageError(["validate", "-x"]))
        #expect(error.message == "Unknown option '-x'")
    }

    @Test func singleDashLongNameSuggestsTheDoubleDashSpelling() throws {
        #expect(usageError(["validate", "-strct"])?.message == "Unknown option '-strct'. Did you mean '--strict'?")
    }

    @Test func missingValueForOption() throws {
        let error = try #require(usageError(["validate", "--format"]))
        #expect(error.description == """
            Error: Missing value for '--format <format>'
            Help:  --format <format>  The output format.

            """ + Self.validateUsage)
        #expect(error.argumentHelp == "--format <format>  The output format.")
        #expect(error.usage == "tipcat validate [--catalog <dir>] [--format <format>] [--strict] [--note <note> ...] [--verbose ...]")
        #expect(error.helpHint == "  See 'tipcat validate --help' for more information.")
    }

    @Test func missingValueWhenTheNextWordIsAnOptionOrDoubleDash() {
        #expect(usageError(["validate", "--format", "--strict"])?.message == "Missing value for '--format <format>'")
        #expect(usageError(["validate", "-f", "--"])?.message == "Missing value for '-f <format>'")
    }

    @Test func missingValueInsideCombinedShortOptions() {
        #expect(usageError(["validate", "-fs", "json"])?.message == """
            Unknown option '-fs'
               or: Missing value for '-f <format>' in '-fs'
            """)
    }

    @Test func missingExpectedArgument() throws {
        let error = try #require(usageError(["engine", "donate", "--width", "3"]))
        #expect(error.description == """
            Error: Missing expected argument '<event>'
            Help:  <event>  The event identifier.
            Usage: tipcat engine donate <event> [<tip-id> ...] [--width <width>] [--catalog-file <file>]
              See 'tipcat engine donate --help' for more information.
            """)
    }

    @Test func missingRequiredOptionAndRepeatingPositional() {
        let root = CommandSpec(name: "tool", arguments: [
            .option("name", help: "Who.", required: true), .positional("files", repeating: true),
        ])
        let parser = ArgumentParser(root: root)
        #expect(usageError(["x"], parser: parser)?.message == "Missing expected argument '--name <name>'")
        #expect(usageError(["x"], parser: parser)?.argumentHelp == "--name <name>  Who.")
        #expect(usageError(["--name", "n"], parser: parser)?.message == "Missing expected argument '<files> ...'")
    }

    @Test func noArgumentsAtAllPrintsTheFullHelpAfterTheError() throws {
        let root = CommandSpec(name: "repeat", arguments: [.positional("phrase", help: "The phrase to repeat.")])
        let parser = ArgumentParser(root: root)
        let error = try #require(usageError([], parser: parser))
        #expect(error.description == """
            Error: Missing expected argument '<phrase>'

            USAGE: repeat <phrase>

            ARGUMENTS:
              <phrase>                The phrase to repeat.

            OPTIONS:
              -h, --help              Show help information.

            """)
    }

    @Test func unexpectedArgument() throws {
        let error = try #require(usageError(["validate", "extra"]))
        #expect(error.description == "Error: Unexpected argument 'extra'\n" + Self.validateUsage)
    }

    @Test func severalUnexpectedArguments() {
        #expect(usageError(["validate", "a", "b"])?.message == "2 unexpected arguments: 'a', 'b'")
    }

    @Test func unknownSubcommandSuggestsACloseSubcommand() throws {
        let error = try #require(usageError(["valdate", "--strict"]))
        #expect(error.description == """
            Error: Unexpected argument 'valdate'. Did you mean 'validate'?
            Usage: tipcat [--quiet] <subcommand>
              See 'tipcat --help' for more information.
            """)
        #expect(usageError(["engine", "donat"])?.message == "Unexpected argument 'donat'. Did you mean 'donate'?")
        #expect(usageError(["zzz"])?.message == "Unexpected argument 'zzz'")
        // Hidden subcommands are never suggested.
        #expect(usageError(["secrt"])?.message == "Unexpected argument 'secrt'")
    }

    @Test func invalidValueListsTheAllowedValues() throws {
        let error = try #require(usageError(["validate", "--format", "xml"]))
        #expect(error.description == """
            Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'text', 'json' or 'github'.
            Help:  --format <format>  The output format.

            """ + Self.validateUsage)
        #expect(usageError(["validate", "-f", "xml"])?.message
            == "The value 'xml' is invalid for '-f <format>'. Please provide one of 'text', 'json' or 'github'.")
    }

    @Test func invalidValueWordingForTwoAndForManyValues() {
        let root = CommandSpec(name: "tool", arguments: [
            .option("pair", allowed: ["on", "off"]),
            .positional("day", help: "A weekday.", required: false, allowed: ["mon", "tue", "wed", "thu", "fri", "sat"]),
        ])
        let parser = ArgumentParser(root: root)
        #expect(usageError(["--pair", "maybe"], parser: parser)?.message
            == "The value 'maybe' is invalid for '--pair <pair>'. Please provide one of 'on' and 'off'.")
        let many = usageError(["sun"], parser: parser)
        #expect(many?.message == """
            The value 'sun' is invalid for '<day>'. Please provide one of the following:
              - mon
              - tue
              - wed
              - thu
              - fri
              - sat
            """)
        #expect(many?.argumentHelp == "<day>  A weekday.")
    }

    @Test func flagGivenAValue() {
        #expect(usageError(["validate", "--strict=yes"])?.message
            == "The option '--strict' does not take any value, but 'yes' was specified.")
    }

    @Test func invalidOptionSpelling() {
        #expect(usageError(["validate", "---x"])?.message == "Invalid option: ---x")
        #expect(usageError(["validate", "-@"])?.message == "Invalid option: -@")
    }

    @Test func earlierStagesReportFirst() {
        // Malformed values are found while scanning, before missing arguments, unknown options and leftovers.
        #expect(usageError(["validate", "--nope", "extra", "--format"])?.message == "Missing value for '--format <format>'")
        #expect(usageError(["engine", "donate", "--nope"])?.message == "Missing expected argument '<event>'")
        #expect(usageError(["validate", "extra", "--zzz"])?.message == "Unknown option '--zzz'")
        // A mistyped subcommand explains the options after it, so it is reported before them.
        #expect(usageError(["valdate", "--strict"])?.message == "Unexpected argument 'valdate'. Did you mean 'validate'?")
        #expect(usageError(["zzz", "--strict"])?.message == "Unknown option '--strict'")
    }

    @Test func unsupportedCompletionShell() throws {
        let error = try #require(usageError(["--generate-completion-script", "tcsh"]))
        #expect(error.message == """
            Can't generate completion scripts for 'tcsh'.
            Please use --generate-completion-script=<shell> with one of:
                bash zsh fish
            """)
        #expect(usageError(["--generate-completion-script"])?.message.hasPrefix("Can't autodetect a supported shell.") == true)
    }
}
