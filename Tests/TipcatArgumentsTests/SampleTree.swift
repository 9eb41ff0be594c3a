import TipcatArguments

/// A small command tree shaped like tipcat's, used by every test in this target.
enum SampleTree {
    static let validate = CommandSpec(
        name: "validate",
        abstract: "Check a catalog and report every problem.",
        discussion: "Reads every file of the catalog and prints one diagnostic per problem, with its file, line and column, in the chosen format.",
        arguments: [
            .option("catalog", valueName: "dir", help: "The catalog directory.", default: "Catalog", completion: .directory),
            .option("format", short: "f", valueName: "format", help: "The output format.", default: "text",
                    allowed: ["text", "json", "github"]),
            .flag("strict", short: "s", help: "Treat warnings as errors."),
            .option("note", help: "A note to attach to the report; may be repeated.", repeating: true),
            .flag("verbose", short: "v", help: "Print more details; repeat for even more.", repeating: true),
            .flag("debug-internals", help: "Not for users.", hidden: true),
        ],
        examples: ["tipcat validate --strict", "tipcat validate --catalog Tips --format github"])

    static let donate = CommandSpec(
        name: "donate",
        abstract: "Donate an event and show which tips become eligible.",
        arguments: [
            .positional("event", help: "The event identifier."),
            .positional("tip-id", help: "Only consider these tips.", required: false, repeating: true),
            .option("width", help: "Column width for the report.", default: "80"),
            .option("catalog-file", valueName: "file", help: "A single catalog file.",
                    completion: .file(extensions: ["json", "xcstrings"])),
        ])

    static let engine = CommandSpec(
        name: "engine",
        abstract: "Simulate the eligibility engine.",
        subcommands: [donate])

    static let secret = CommandSpec(name: "secret", abstract: "Internal.", isHidden: true)

    static let root = CommandSpec(
        name: "tipcat",
        abstract: "Author and check TipKit-style tip catalogs.",
        arguments: [.flag("quiet", short: "q", help: "Print errors only.")],
        subcommands: [validate, engine, secret],
        version: "1.2.3")

    static let parser = ArgumentParser(root: root)
}
