// tipcat-plugin-keys: an external tipcat plugin written with the TipcatPlugin library.
//
// generate: one Swift file of typed constants for a catalog's tip ids, event ids, parameter names and String
//           Catalog keys, so app code never spells them by hand.
// lint:     warns when two names of the catalog become the same Swift identifier.
//
// Options: "enum" (default "TipcatKeys"), "access" ("public" or "internal", default "public"),
//          "file" (default "<enum>.swift").
import TipcatPlugin

/// Swift identifiers for catalog names: `entered-backyard-detail-view` → `enteredBackyardDetailView`.
enum SwiftName {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is", "nil",
        "super", "self", "Self", "throw", "throws", "true", "try", "Any", "some", "any",
    ]

    static func identifier(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        for scalar in name.unicodeScalars {
            let isWordCharacter = (scalar.value < 0x80) && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)))
            if isWordCharacter {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard let first = words.first else { return "_" }
        var result = lowerFirst(first)
        for word in words.dropFirst() { result += upperFirst(word) }
        if let leading = result.first, leading.isNumber { result = "_" + result }
        return keywords.contains(result) ? "`\(result)`" : result
    }

    /// An UpperCamelCase type name.
    static func typeName(_ name: String) -> String {
        let identifier = SwiftName.identifier(name).filter { $0 != "`" }
        guard let first = identifier.first, first != "_" else { return "Keys" + identifier }
        return String(first).uppercased() + identifier.dropFirst()
    }

    private static func lowerFirst(_ word: String) -> String {
        // A leading acronym stays lowercase as a whole: "URLTip" → "urlTip".
        let scalars = Array(word)
        var index = 0
        while index < scalars.count, scalars[index].isUppercase { index += 1 }
        if index <= 1 { return scalars.first.map { String($0).lowercased() + String(scalars.dropFirst()) } ?? word }
        let lowerCount = index == scalars.count ? index : index - 1
        return String(scalars[..<lowerCount]).lowercased() + String(scalars[lowerCount...])
    }

    private static func upperFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return String(first).uppercased() + word.dropFirst()
    }
}

/// One namespace of constants: names in catalog order, identifiers made unique.
struct Section {
    var title: String
    var entries: [(identifier: String, value: String, place: Place)]
    var collisions: [(identifier: String, first: String, second: String, place: Place)] = []

    init(title: String, values: [(String, Place)]) {
        self.title = title
        var seen: [String: String] = [:]
        var entries: [(String, String, Place)] = []
        for (value, place) in values {
            var identifier = SwiftName.identifier(value)
            if let first = seen[identifier] {
                collisions.append((identifier, first, value, place))
                var suffix = 2
                while seen[identifier + "\(suffix)"] != nil { suffix += 1 }
                identifier += "\(suffix)"
            }
            seen[identifier] = value
            entries.append((identifier, value, place))
        }
        self.entries = entries
    }
}

func sections(_ catalog: PluginCatalog) -> [Section] {
    [
        Section(title: "Tips", values: catalog.tips.map { ($0.id, $0.at) }),
        Section(title: "Events", values: catalog.events.map { ($0.id, $0.at) }),
        Section(title: "Parameters", values: catalog.parameters.map { ($0.name, $0.at) }),
        Section(title: "Groups", values: catalog.groups.map { ($0.id, $0.at) }),
        Section(title: "Strings", values: catalog.tips.flatMap { tip in tip.texts.map { ($0.key, $0.at) } }),
    ]
}

func swiftString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

struct Keys: GeneratorPlugin, LintPlugin {
    func generate(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginFile] {
        let name = options["enum"]?.stringValue ?? "TipcatKeys"
        let access = options["access"]?.stringValue == "internal" ? "" : "public "
        let file = options["file"]?.stringValue ?? "\(name).swift"
        var lines = [
            "// Generated by tipcat-plugin-keys from the catalog \(swiftString(catalog.name)). Do not edit:",
            "// run `tipcat generate keys` again after changing the catalog.",
            "",
            "/// The names of the catalog's tips, events, parameters, groups and String Catalog keys.",
            "\(access)enum \(SwiftName.typeName(name)) {",
        ]
        for section in sections(catalog) where !section.entries.isEmpty {
            lines.append("    \(access)enum \(section.title) {")
            for entry in section.entries {
                lines.append("        \(access)static let \(entry.identifier) = \(swiftString(entry.value))")
            }
            lines.append("    }")
        }
        lines.append("}")
        return [PluginFile(path: file, contents: lines.joined(separator: "\n") + "\n")]
    }

    func lint(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic] {
        sections(catalog).flatMap { section in
            section.collisions.map { collision in
                PluginDiagnostic(
                    .warning, rule: "identifier-collision",
                    message: "'\(collision.second)' and '\(collision.first)' both become \(section.title).\(collision.identifier) in Swift; the second gets a number",
                    at: collision.place)
            }
        }
    }
}

PluginServer(
    name: "keys", version: "1.0.0",
    summary: "Swift constants for a catalog's tip ids, event ids, parameter names, groups and String Catalog keys",
    optionsSchema: .object([
        "type": .string("object"),
        "properties": .object([
            "enum": .object(["type": .string("string"), "description": .string("The enum's name (default TipcatKeys).")]),
            "access": .object(["enum": .array([.string("public"), .string("internal")])]),
            "file": .object(["type": .string("string"), "description": .string("The file to write (default <enum>.swift).")]),
        ]),
    ]),
    linter: Keys(), generator: Keys()
).main()
