/// CLDR cardinal plural rules for every CLDR locale.
///
/// The rules are compiled to Swift by `tipcat-gen-plurals` (see `PluralRules+CLDR.swift`); nothing is parsed at
/// runtime. Locales without their own rules fall back along their chain (`fr-CA` → `fr`); languages CLDR does
/// not know use the root rules, where every number is `other`.
public enum PluralRules {
    /// The plural category of a number in `locale`.
    public static func category(for operands: PluralOperands, locale: LocaleID) -> PluralCategory {
        ruleSet(for: locale).select(operands)
    }

    /// The categories `locale` uses, sorted (`.other` is always included).
    public static func categories(for locale: LocaleID) -> [PluralCategory] {
        ruleSet(for: locale).categories
    }

    /// Whether CLDR has rules for `locale` or one of its parents (`fr-CA` → `fr`).
    public static func hasRules(for locale: LocaleID) -> Bool {
        locale.truncations.contains { cldrRuleSets[$0.identifier] != nil }
    }

    /// The CLDR locale keys, in BCP 47 form (`pt-PT`), sorted.
    public static var locales: [String] { cldrRuleSets.keys.sorted() }

    static func ruleSet(for locale: LocaleID) -> CLDRRuleSet {
        // The locale itself first, without making the chain: it is asked for every translation with a plural.
        if let rules = cldrRuleSets[locale.identifier] { return rules }
        for candidate in locale.truncations.dropFirst() {
            if let rules = cldrRuleSets[candidate.identifier] { return rules }
        }
        return .root
    }

    /// One compiled CLDR rule set, shared by every locale with identical rules.
    struct CLDRRuleSet: Sendable {
        let categories: [PluralCategory]
        let select: @Sendable (PluralOperands) -> PluralCategory

        /// CLDR's root locale: everything is `other`.
        static let root = CLDRRuleSet(categories: [.other]) { _ in .other }
    }
}
