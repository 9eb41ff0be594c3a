import TipcatCatalog
import TipcatCore
import TipcatPlugin

/// A built-in generator that reads the catalog as tipcat loaded it (typed parameters, parsed messages) rather
/// than its `tipcat.plugin/1` form.
protocol CatalogGenerator: GeneratorPlugin {
    func generate(catalog: Catalog, options: [String: PluginJSON]) throws -> [PluginFile]
}

extension CatalogGenerator {
    func generate(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginFile] {
        throw SwiftGenerationError("this generator runs inside tipcat, on the loaded catalog")
    }
}

/// Why Swift could not be generated (a bad option).
struct SwiftGenerationError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Swift source text from catalog values that may hold anything: string literals, comments, identifiers.
/// Nothing from the catalog reaches the output except through these, so no value can end a literal or a
/// comment early and become code.
enum SwiftSource {
    /// A string literal: `\`, `"`, line breaks, control and format characters (bidirectional overrides
    /// included) escaped; a `\(` in the text stays text.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if needsEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Control, format, separator, private-use and unassigned scalars: invisible or line-breaking in an editor.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
        default: false
        }
    }

    /// Text for a `//` or `///` comment: one line, invisible characters replaced by spaces, at most `limit`
    /// characters.
    static func comment(_ text: String, limit: Int = 1_000) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                result += "…"
                break
            }
            if needsEscape(scalar) || scalar.properties.generalCategory == .spaceSeparator { result += " " } else { result.unicodeScalars.append(scalar) }
            count += 1
        }
        return result.trimmingWhitespace()
    }

    /// Words of a name: `com.example.trails.plan-tomorrow` → com, example, trails, plan, tomorrow;
    /// `isLoggedIn` stays one word. Anything but ASCII letters and digits separates words.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `FavoriteBackyardTip` → `FavoriteBackyardTip`; `com.example.trails.plan-tomorrow` → `ComExampleTrailsPlanTomorrow`.
    static func typeName(_ name: String) -> String {
        let joined = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return safe(joined, type: true)
    }

    /// `entered-backyard-detail-view` → `enteredBackyardDetailView`; `isLoggedIn` → `isLoggedIn`.
    static func memberName(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "_" }
        let head = first.prefix(1).lowercased() + first.dropFirst()
        return safe(head + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(), type: false)
    }

    /// An identifier that cannot be read as anything else: `_` before a leading digit, keywords in backticks
    /// (or, for the few names backticks do not free, with a trailing `_`).
    static func safe(_ name: String, type: Bool) -> String {
        guard let first = name.unicodeScalars.first else { return "_" }
        if ("0"..."9").contains(first) { return "_" + name }
        if unescapable.contains(name) { return name + "_" }
        if keywords.contains(name) { return "`" + name + "`" }
        return name
    }

    /// Names that stay special even in backticks, or that would shadow what generated code uses.
    static let unescapable: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "_",
                                           "Tip", "Text", "Image", "Rule", "Action", "Value", "String", "Int", "Bool",
                                           "Double", "Timestamp", "TipID", "EventID", "ParameterName", "TipInstanceID",
                                           "GroupID", "Tips", "TipOption", "Date", "Set", "Array", "Dictionary", "Optional",
                                           "Bundle", "Sendable", "Codable", "Hashable", "Never", "Parameter", "TipEngine",
                                           "TipEngineSession", "TipEngineError"]

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "super", "throws", "true", "try", "async", "actor", "consume", "copy", "borrowing",
        "consuming", "discard", "each", "some", "any", "macro", "package",
    ]

    /// Unique names for `names` (in order): a name already taken gets `2`, `3`… appended.
    static func unique(_ names: [String]) -> [String] {
        var taken = Set<String>()
        return names.map { name in
            let bare = name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
            var candidate = name
            var number = 2
            while !taken.insert(candidate).inserted {
                candidate = safe(bare + String(number), type: false)
                number += 1
            }
            return candidate
        }
    }

    /// The first line of every generated file.
    static func header(_ generator: String, catalog: Catalog) -> [String] {
        ["// Generated by `tipcat generate \(generator)` from the catalog \(comment(catalog.settings.name)). Do not edit;",
         "// run the command again after changing the catalog (`tipcat generate \(generator) --check` in CI)."]
    }

    /// `access` option: `public` (default) or `internal`.
    static func accessLevel(_ options: [String: PluginJSON]) throws -> String {
        guard let value = options["access"] else { return "public" }
        guard let text = value.stringValue, ["public", "internal"].contains(text) else {
            throw SwiftGenerationError("option 'access' is public or internal")
        }
        return text
    }

    /// A name option (`namespace`): a Swift type name.
    static func typeOption(_ options: [String: PluginJSON], _ key: String, default fallback: String) throws -> String {
        guard let value = options[key] else { return fallback }
        guard let text = value.stringValue, let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }),
              !keywords.contains(text), !unescapable.contains(text)
        else {
            throw SwiftGenerationError("option '\(key)' is a Swift type name (letters, digits, _), such as \(fallback)")
        }
        return text
    }
}
