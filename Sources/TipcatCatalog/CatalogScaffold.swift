/// The files `tipcat init` writes: a minimal catalog that validates cleanly and shows each file's shape.
public enum CatalogScaffold {
    /// Relative path → text, for a catalog called `name`.
    public static func files(name: String) -> [String: String] {
        let quotedName = name.replacingQuotes()
        return [
            "catalog.json": """
                {
                  "$schema": "schemas/catalog.schema.json",
                  "name": "\(quotedName)",
                  "schemaVersion": 1,
                  "sourceLanguage": "en",
                  "supportedLocales": ["en"],
                  "displayFrequency": "immediate",
                  "enabled": true
                }

                """,
            "parameters.json": """
                {
                  "$schema": "schemas/parameters.schema.json",
                  "parameters": [
                    {
                      "name": "isLoggedIn",
                      "type": "bool",
                      "default": false,
                      "lifetime": "persistent",
                      "description": "Whether the user is signed in."
                    }
                  ]
                }

                """,
            "events.json": """
                {
                  "$schema": "schemas/events.schema.json",
                  "events": [
                    {
                      "id": "app-opened",
                      "description": "The app came to the foreground."
                    }
                  ]
                }

                """,
            "groups.json": """
                {
                  "$schema": "schemas/groups.schema.json",
                  "groups": []
                }

                """,
            "tips/WelcomeTip.json": """
                {
                  "$schema": "../schemas/tip.schema.json",
                  "id": "WelcomeTip",
                  "title": "Welcome!",
                  "message": "Tips like this one explain a feature when it becomes useful.",
                  "image": "sparkles",
                  "rules": ["$isLoggedIn", "#app-opened.count >= 2"],
                  "options": { "maxDisplayCount": 3 },
                  "comment": "Shown once the signed-in user has opened the app twice."
                }

                """,
            "Localizable.xcstrings": """
                {
                  "sourceLanguage" : "en",
                  "strings" : {

                  },
                  "version" : "1.0"
                }

                """,
        ]
    }
}

extension String {
    /// Escapes `"` and `\` for embedding in a JSON string literal.
    func replacingQuotes() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, scalar.value < 0x20 {
                    out += " "
                } else {
                    out.append(character)
                }
            }
        }
        return out
    }
}
