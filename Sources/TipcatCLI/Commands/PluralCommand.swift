import TipcatArguments
import TipcatJSON
import TipcatLocalization

/// `tipcat plural LOCALE NUMBER…`: one CLDR category per line.
struct PluralCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let command = ["tipcat", "plural"]
        let localeText = arguments.positional("locale") ?? ""
        guard let locale = LocaleID(localeText) else {
            throw CommandError.usage("'\(localeText)' is not a locale identifier; use a language code such as 'en', 'fr-CA' or 'zh-Hant'", command: command)
        }
        let hasRules = PluralRules.hasRules(for: locale)
        if !hasRules {
            context.stderr.line("warning: CLDR has no plural rules for '\(locale)'; every number is 'other'")
        }
        var results: [(number: String, category: String)] = []
        for text in arguments.values("numbers") {
            guard let operands = PluralOperands(text) else {
                throw CommandError.usage("'\(text)' is not a number; write digits with an optional sign, decimals and exponent (1, -2, 1.50, 1.2c6)", command: command)
            }
            results.append((text, PluralRules.category(for: operands, locale: locale).rawValue))
        }
        if arguments.flag("json") {
            context.stdout.json(.object([
                ("locale", .string(locale.description)),
                ("hasRules", .bool(hasRules)),
                ("numbers", .array(results.map { .object([("number", .string($0.number)), ("category", .string($0.category))]) })),
            ]))
            return
        }
        context.stdout.write(results.map { $0.category + "\n" }.joined())
    }
}
