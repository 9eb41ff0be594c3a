import TipcatArguments

/// `tipcat strings …`: the String Catalog from the command line (`status`; room for `sync`, `export`, `import`).
extension CommandTree {
    static let strings = CommandSpec(
        name: "strings",
        abstract: "Report on the String Catalog (Localizable.xcstrings): translation status per locale.",
        examples: ["tipcat strings status", "tipcat strings status --min-coverage 90"])

    static let stringsStatus = CommandSpec(
        name: "status",
        abstract: "Count, per locale, the tip texts that are translated, need review, are new, stale or missing.",
        discussion: """
            The texts are every tip's title, message and action titles (the String Catalog keys \
            <TipID>.title, <TipID>.message, <TipID>.action.<actionID>). Each supported locale except the source \
            language gets one row: how many texts its own entry has marked translated, needs_review, new or stale, \
            how many have no translation for it (missing; no fallback to a parent locale), and the share \
            translated, to one decimal. Keys that match no tip text are counted as orphans. The catalog must have \
            no errors (external plugins are not run). Exit status: 0, 1 when the catalog has errors or a locale is \
            below --min-coverage, 64 usage.
            """,
        arguments: [
            catalogOption,
            .flag("json", help: "Print JSON."),
            .option("min-coverage", valueName: "pct",
                    help: "Exit 1 when any locale has less than this percentage translated (0 to 100, decimals allowed)."),
        ],
        examples: ["tipcat strings status", "tipcat strings status --json", "tipcat strings status --min-coverage 95"])
}
