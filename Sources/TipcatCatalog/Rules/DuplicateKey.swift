public import TipcatCore

extension DiagnosticRule {
    /// A key written twice in one object.
    public static let duplicateKey = DiagnosticRule(
        "duplicate-key", .error, stage: .catalog,
        summary: "an object key written twice",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": "A tip", "title": "Another tip"}"##]),
            CatalogExample.catalog(tips: ["A"], extra: ["events.json": ##"""
                {"events": [{"id": "opened-map", "fields": {"region": "string", "region": "int"}}]}
                """##]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"trail": {"id": "string", "id": "int"}}"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"n": "int", "n": "string"}"##)]),
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"value": "Une"}}, "fr": {"stringUnit": {"value": "Deux"}}}}
                """##)]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `duplicate key 'title' in tip 'A'`, with a note at the first one.
    static func duplicateKey(_ key: String, in subject: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic("duplicate key '\(key)' in \(subject)", rule: .duplicateKey, at: location,
                   notes: [.init("first written here", at: first)])
    }

    /// `duplicate field 'region' in event 'opened-map'` (`owner` names the event or record type).
    static func duplicateField(_ name: String, in owner: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("duplicate field '\(name)' in \(owner)", rule: .duplicateKey, at: location)
    }
}
