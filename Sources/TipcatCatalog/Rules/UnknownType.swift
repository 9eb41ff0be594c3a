public import TipcatCore

extension DiagnosticRule {
    /// A type name tipcat does not know, or a type where it is not allowed.
    public static let unknownType = DiagnosticRule(
        "unknown-type", .error, stage: .catalog,
        summary: "a parameter or field type that does not exist",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "launches", "type": "integer", "default": 0}]}
                """##]),
            CatalogExample.catalog(tips: ["A"], extra: ["events.json": ##"""
                {"events": [{"id": "opened-map", "fields": {"tags": "list<string>"}}]}
                """##]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"trail": {}}"##)]),
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "nickname", "type": "string?", "default": ""}]}
                """##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "launches", "type": "int", "default": 0}]}
                """##]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"nickname": "string?"}"##)]),
        ])
}

extension Diagnostic {
    /// `unknown type 'integer' for parameter 'launches'; use …` (`suggestion` follows).
    static func unknownType(_ text: String, for what: String, suggestion: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("unknown type '\(text)' for \(what); use string, int, double, bool, date, list<T> or set<T>" + suggestion,
                   rule: .unknownType, at: location)
    }

    /// `field 'tags' of event 'x' must have a scalar type (…), found 'list<string>'`.
    static func nonScalarType(_ text: String, for what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) must have a scalar type (string, int, double, bool or date), found '\(text)'",
                   rule: .unknownType, at: location)
    }

    /// `parameter 'x' cannot have an optional type ('string?'): …` (`why` follows).
    static func optionalTypeNotAllowed(_ text: String, for what: String, why: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) cannot have an optional type ('\(text)'): \(why)", rule: .unknownType, at: location)
    }

    /// `'int??' for parameter 'x' is not a type: only a whole type can be optional …`.
    static func nestedOptionalType(_ text: String, for what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("unknown type '\(text)' for \(what); only a whole type can be optional, once, as in 'string?' or 'list<int>?' "
                   + "(elements of lists and sets are never optional)", rule: .unknownType, at: location)
    }

    /// `the record type of parameter 'trail' of tip 'A' has no fields`.
    static func emptyRecordType(for what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the record type of \(what) has no fields", rule: .unknownType, at: location)
    }
}
