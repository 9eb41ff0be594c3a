/// Small catalogs for the examples of `DiagnosticRule`s: relative path → file text.
///
/// The rules' tests load each example; a non-triggering example built from these pieces must load with no
/// finding at all, so the pieces are valid on their own.
public enum CatalogExample {
    /// A valid `catalog.json` whose source language is `en`, shipping `en` and `fr`.
    public static let catalogJSON = """
        {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr"]}
        """

    /// A valid `parameters.json` declaring `$isLoggedIn` (bool).
    public static let parametersJSON = """
        {"parameters": [{"name": "isLoggedIn", "type": "bool", "default": false}]}
        """

    /// A valid `events.json` declaring `#opened-map` with a string field `region`.
    public static let eventsJSON = """
        {"events": [{"id": "opened-map", "fields": {"region": "string"}}]}
        """

    /// A tip file with an id and a title.
    public static func tip(_ id: String, title: String = "A tip") -> String {
        "{\"id\": \"\(id)\", \"title\": \"\(title)\"}"
    }

    /// A tip file with an id, the title `A tip` and more members, written as JSON (`"image": "map"`).
    public static func tip(_ id: String, _ members: String) -> String {
        "{\"id\": \"\(id)\", \"title\": \"A tip\", \(members)}"
    }

    /// A catalog with one file per tip id (`tips/<id>.json`) plus `extra` files (which win over the others).
    public static func catalog(tips: [String], extra: [String: String] = [:]) -> [String: String] {
        var files = ["catalog.json": catalogJSON]
        for id in tips { files["tips/\(id).json"] = tip(id) }
        return files.merging(extra) { _, new in new }
    }

    /// A catalog declaring `$isLoggedIn` and `#opened-map`, with tip `A` whose only rule is `rule`; `members`
    /// adds JSON members to the tip.
    public static func rule(_ rule: String, members: String? = nil) -> [String: String] {
        let more = members.map { ", " + $0 } ?? ""
        return catalog(tips: [], extra: [
            "parameters.json": parametersJSON,
            "events.json": eventsJSON,
            "tips/A.json": tip("A", "\"rules\": [\"\(jsonEscaped(rule))\"]" + more),
        ])
    }

    /// A String Catalog (source language `en`) holding `strings`, the JSON members of its `strings` object.
    public static func stringCatalog(_ strings: String) -> String {
        "{\"sourceLanguage\": \"en\", \"version\": \"1.0\", \"strings\": {\(strings)}}"
    }

    /// `text` with `"` and `\` escaped for a JSON string.
    private static func jsonEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
