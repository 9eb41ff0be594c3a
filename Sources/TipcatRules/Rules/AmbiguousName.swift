public import TipcatCore

extension DiagnosticRule {
    /// A name inside `where` that is both a field of the event and a parameter of the tip.
    public static let ambiguousName = DiagnosticRule(
        "ambiguous-name", .error, stage: .rules,
        summary: "a name in `where` that is both an event field and a tip parameter",
        triggering: [
            CatalogExample.rule("#opened-map.where(region == \"north\").count > 0", members: ##""parameters": {"region": "string"}"##),
        ],
        nonTriggering: [CatalogExample.rule("#opened-map.where(region == \"north\").count > 0")])
}

extension RuleDiagnostic {
    /// `'region' is both a field of #opened-map and a parameter of this tip; rename one`.
    static func ambiguousName(_ name: String, event: String, at range: Range<Int>) -> RuleDiagnostic {
        RuleDiagnostic("'\(name)' is both a field of #\(event) and a parameter of this tip; rename one", rule: .ambiguousName, range: range)
    }
}
