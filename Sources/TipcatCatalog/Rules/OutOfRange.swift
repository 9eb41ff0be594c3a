public import TipcatCore

extension DiagnosticRule {
    /// A number outside its allowed range.
    public static let outOfRange = DiagnosticRule(
        "out-of-range", .error, stage: .catalog,
        summary: "a number outside its range",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayCount": 0}"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayDuration": "5300w"}"##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayCount": 3}"##)]),
        ])
}

extension Diagnostic {
    /// `'maxDisplayCount' in the options of tip 'A' must be at least 1, found 0` (`bound` is "at least 1"…).
    static func outOfRange(_ key: String, in subject: String, bound: String, found value: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(key)' in \(subject) must be \(bound), found \(value)", rule: .outOfRange, at: location)
    }

    /// `'displayFrequency' in catalog.json must be at most 36500d (100 years), found 52000w`.
    static func durationOutOfRange(_ key: String, in subject: String, found span: TimeSpan, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(key)' in \(subject) must be \(CatalogLimits.durationBound), found \(span)", rule: .outOfRange, at: location)
    }
}
