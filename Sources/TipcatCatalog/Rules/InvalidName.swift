public import TipcatCore

extension DiagnosticRule {
    /// An id or name with characters its kind does not allow.
    public static let invalidName = DiagnosticRule(
        "invalid-name", .error, stage: .catalog,
        summary: "an id or name with characters its kind does not allow",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "com..example", "title": "A tip"}"##]),
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "1st", "type": "bool", "default": false}]}
                """##]),
            CatalogExample.catalog(tips: ["A"], extra: ["events.json": ##"{"events": [{"id": "opened map"}]}"##]),
            CatalogExample.catalog(tips: ["A"], extra: ["events.json": ##"""
                {"events": [{"id": "opened-map", "fields": {"the region": "string"}}]}
                """##]),
            CatalogExample.catalog(tips: ["A"], extra: ["groups.json": ##"""
                {"groups": [{"id": "my group", "priority": "ordered", "tips": ["A"]}]}
                """##]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"trail id": "string"}"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""actions": [{"id": "go there", "title": "Go"}]"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"trail": {"the id": "string"}}"##)]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `'1st' is not a valid parameter name; …` (an app parameter).
    static func invalidParameterName(_ name: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(name)' is not a valid parameter name; use letters, digits and _ (not starting with a digit)",
                   rule: .invalidName, at: location)
    }

    /// `'opened map' is not a valid event id; …`.
    static func invalidEventID(_ id: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(id)' is not a valid event id; use letters, digits, _ and single dashes (e.g. 'entered-detail-view')",
                   rule: .invalidName, at: location)
    }

    /// `'trail id' is not a valid field name in event 'opened-map'; …` (`owner` names the event or record).
    static func invalidFieldName(_ name: String, in owner: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(name)' is not a valid field name in \(owner); use letters, digits and _", rule: .invalidName, at: location)
    }

    /// `'my group' is not a valid group id; …`.
    static func invalidGroupID(_ id: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(id)' is not a valid group id; use letters, digits and _", rule: .invalidName, at: location)
    }

    /// `'com..example' is not a valid tip id; …`.
    static func invalidTipID(_ id: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(id)' is not a valid tip id; use letters, digits, _ and - in parts joined by dots (ShowLocationTip, com.example.share-tip), each part starting with a letter or _",
                   rule: .invalidName, at: location)
    }

    /// `'trail id' is not a valid parameter name in tip 'A'; …` (a tip's own parameter).
    static func invalidTipParameterName(_ name: String, in subject: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(name)' is not a valid parameter name in \(subject); use letters, digits and _", rule: .invalidName, at: location)
    }

    /// `'go there' is not a valid action id; …`.
    static func invalidActionID(_ id: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(id)' is not a valid action id; use letters, digits, _ and single dashes", rule: .invalidName, at: location)
    }
}
