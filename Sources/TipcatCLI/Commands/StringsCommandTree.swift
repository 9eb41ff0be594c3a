import TipcatArguments

/// `tipcat strings …`: the String Catalog from the command line (`status`, `sync`, `export`, `import`).
extension CommandTree {
    static let strings = CommandSpec(
        name: "strings",
        abstract: "Report on the String Catalog (Localizable.xcstrings) and keep it in sync with the tips.",
        examples: ["tipcat strings status", "tipcat strings status --min-coverage 90", "tipcat strings sync --check",
                   "tipcat strings export --locale fr", "tipcat strings import Localizations/fr.xliff"])

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

    static let stringsSync = CommandSpec(
        name: "sync",
        abstract: "Bring Localizable.xcstrings up to date with the tip texts, formatted as Xcode writes it.",
        discussion: """
            A tip text with no key gets one, with the tip's comment, extractionState manual and the tip's text as \
            the source-language string. The source-language string records the text the translations were made \
            from: when the tip's text differs, it is updated and the key's translated strings in other locales \
            (plural and substitution forms too) become needs_review. A key with no source-language string cannot \
            tell; it gets the tip's text recorded, so the next change is detected. Keys shaped like a tip's that \
            no tip uses are marked stale (removed with --prune); the app's own keys are never touched. Everything \
            not changed is written back byte for byte, so a file in sync is left identical. The file is replaced \
            atomically, created when missing, and never written when the catalog has errors (external plugins \
            are not run; orphan-translation findings, even raised to errors, do not count: sync resolves them). Exit status: 0, 1 when the catalog has errors or (--check) the file is out of date, \
            64 usage.
            """,
        arguments: [
            catalogOption,
            .flag("check", help: "Write nothing; list what would change and exit 1 when the file is out of date."),
            .flag("prune", help: "Remove the stale keys instead of marking them stale."),
        ],
        examples: ["tipcat strings sync", "tipcat strings sync --check", "tipcat strings sync --prune"])

    static let stringsExport = CommandSpec(
        name: "export",
        abstract: "Write XLIFF 1.2 files for translators, one per locale, as Xcode's .xcloc export does.",
        discussion: """
            Writes <DIR>/<locale>.xliff for each --locale: one <file original="Localizable.xcstrings"> whose \
            trans-units are the tip texts' strings, sorted by id. The id is the String Catalog key; a plural or \
            device variation gets one trans-unit per form, KEY|==|plural.one, KEY|==|device.mac, \
            KEY|==|device.mac.plural.one, as Xcode writes them. <source> is the source-language string (the tip's \
            text when the catalog has none), <target> the locale's string when it has one, with its state \
            (translated, needs_review → needs-review-translation, new, stale → x-stale), and <note> the tip's \
            comment. The catalog must have no errors. Exit status: 0, 1 when the catalog has errors or a file \
            cannot be written, 64 usage.
            """,
        arguments: [
            catalogOption,
            .option("locale", valueName: "locale", help: "A locale to export (repeat for several).", required: true, repeating: true),
            .option("output", short: "o", valueName: "dir", help: "The directory for the .xliff files.", default: "Localizations",
                    completion: .directory),
        ],
        examples: ["tipcat strings export --locale fr", "tipcat strings export --locale fr --locale de -o Translations"])

    static let stringsImport = CommandSpec(
        name: "import",
        abstract: "Merge translated XLIFF 1.2 files (or .xcloc bundles) back into Localizable.xcstrings.",
        discussion: """
            Each trans-unit with a <target> sets the target-language string at its key (and variation, \
            KEY|==|plural.one …). Its state becomes translated, or needs_review when the XLIFF state is \
            needs-review-…, new for new and stale for x-stale. Per locale it reports how many strings were added, \
            changed and unchanged. Everything not changed is written back byte for byte, atomically, through the \
            writer strings sync uses. An .xcloc is a directory: its Localized Contents/<locale>.xliff is read. \
            Every file is checked before anything is written: a file whose source-language is not the catalog's, \
            whose target-language is not a supported locale, or with ids matching no tip text (all listed) is \
            refused. XML is read without DTDs: a DOCTYPE or entity declaration, nesting deeper than 64 elements, \
            invalid UTF-8 or malformed XML is refused with its file:line:col. Exit status: 0, 1 when a file is \
            refused or the catalog has errors (nothing is written), 64 usage.
            """,
        arguments: [
            catalogOption,
            .positional("file", help: "XLIFF files or .xcloc directories.", required: true, repeating: true, completion: .file(extensions: ["xliff", "xcloc"])),
        ],
        examples: ["tipcat strings import Localizations/fr.xliff", "tipcat strings import fr.xcloc de.xcloc"])
}
