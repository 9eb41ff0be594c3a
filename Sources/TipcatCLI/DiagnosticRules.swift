public import TipcatCore
import TipcatCatalog
import TipcatEngine
import TipcatJSON
import TipcatPlugins
import TipcatRender
import TipcatRules
import TipcatTemplates

/// Every rule a diagnostic can carry, from every module: the one list (swift-format's generated registry).
///
/// Each rule is declared once, one a file, in the module that reports it (`Sources/<Module>/Rules/*.swift`,
/// lint rules in `Sources/TipcatCatalog/LintRules/`). A new rule goes into this list too; `DiagnosticRulesTests`
/// fails when a declared rule is missing here, when two rules share an id, when a rule id is written as a string
/// at an emission site, and when the README's table (`make docs`) is out of date.
public enum DiagnosticRules {
    /// Every rule, grouped by stage in the order a catalog meets them; the README's table lists them in this order.
    public static let all: [DiagnosticRule] = [
        // Reading files (TipcatJSON)
        .invalidJSON,
        // Catalog files and declarations (TipcatCatalog)
        .catalogNotFound,
        .missingFile,
        .unreadableFile,
        .unexpectedFile,
        .unknownKey,
        .duplicateKey,
        .missingKey,
        .wrongType,
        .invalidValue,
        .outOfRange,
        .invalidName,
        .unsupportedSchemaVersion,
        .invalidLocale,
        .duplicateLocale,
        .unknownType,
        .duplicateParameter,
        .duplicateEvent,
        .duplicateAction,
        .shadowedParameter,
        .emptyText,
        .emptyGroup,
        // Messages (TipcatCatalog)
        .invalidCustomID,
        .constantCustomID,
        .messageSyntax,
        .malformedMarkup,
        .unsafeLink,
        .undeclaredPlaceholder,
        .optionalPlaceholder,
        .missingPluralCategory,
        .pluralCategoryFallback,
        // The String Catalog (TipcatCatalog)
        .sourceLanguageMismatch,
        .placeholderMismatch,
        .printfMismatch,
        .unexpectedPluralVariation,
        .unsupportedStringCatalogFeature,
        .unknownExtractionState,
        .sourceTextMismatch,
        .notTranslated,
        .emptyTranslation,
        // The rule language (TipcatRules)
        .ruleSyntax,
        .unknownEvent,
        .unknownParameter,
        .unknownField,
        .unknownName,
        .unknownTip,
        .unknownMember,
        .ambiguousName,
        .typeMismatch,
        .alwaysTrue,
        .alwaysFalse,
        // Checks across files (TipcatCatalog, CatalogLintRule)
        .duplicateTipID,
        .duplicateGroupID,
        .unknownGroupMember,
        .tipInSeveralGroups,
        .fileNameMismatch,
        .sourceLanguageUnsupported,
        .unsupportedLocale,
        .orphanTranslation,
        // Mustache templates (TipcatTemplates)
        .templateUnclosedTag,
        .templateEmptyTagName,
        .templateInvalidTagName,
        .templateInvalidDelimiters,
        .templateUnclosedSection,
        .templateMismatchedClosingTag,
        .templateUnexpectedClosingTag,
        .templateNestingTooDeep,
        .templateMissingPartial,
        .templateUnsafePartialName,
        .templatePartialFailed,
        .templateRecursionLimit,
        .templateTooLarge,
        .templateLambdaFailed,
        // Style folders (TipcatRender)
        .invalidStyle,
        // Simulation scripts (TipcatEngine)
        .simulateSyntax,
        .unknownCommand,
        .unknownGroup,
        // The engine (TipcatEngine)
        .engineRuleError,
        // The engine commands (TipcatCLI)
        .donateBatchLine,
        .eventsLogLine,
        .stateFile,
        // lint.json: house rules as data and rule levels (TipcatCatalog)
        .unknownRule,
        .ruleNotConfigurable,
        .invalidRegex,
        .duplicateRuleID,
        // External plugins (TipcatPlugins)
        .pluginFailed,
        .pluginBadLocation,
        .pluginBadPath,
        .postPublishFailed,
        .duplicatePlugin,
        .pluginNotFound,
    ]

    /// The ids of every rule (for configuration that names rules, such as per-catalog overrides).
    public static let allIDs: Set<String> = Set(all.map(\.id))

    /// The rule with `id`, if there is one.
    public static func rule(id: String) -> DiagnosticRule? {
        all.first { $0.id == id }
    }

    /// The README's "Diagnostics" table: id, severity, stage and summary of every rule, in Markdown.
    public static func markdownTable() -> String {
        all.markdownTable()
    }
}
