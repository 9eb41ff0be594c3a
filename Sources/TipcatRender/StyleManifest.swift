public import TipcatCore
import TipcatJSON

/// `Templates/<name>/style.json`: what a style is called, what it produces and how it escapes values.
public struct StyleManifest: Sendable, Hashable {
    /// What a style produces; decides default escaping and whether colours apply.
    public enum Output: String, Sendable, Hashable, CaseIterable {
        case text, markdown, ansi, html
    }

    /// How values are made safe before they meet the template.
    public enum EscaperName: String, Sendable, Hashable, CaseIterable {
        /// Strip terminal control sequences (C0 but newline, DEL, C1, bidi overrides).
        case terminal
        /// `terminal`, then backslash-escape Markdown punctuation so values stay literal text.
        case markdown
        /// HTML entity escaping, for styles that produce HTML.
        case html
    }

    public var name: String
    public var description: String
    public var output: Output
    public var escaper: EscaperName

    public init(name: String, description: String, output: Output, escaper: EscaperName) {
        self.name = name
        self.description = description
        self.output = output
        self.escaper = escaper
    }

    /// Reads a manifest; problems are diagnostics located in the file.
    public static func parse(_ file: SourceFile) -> (manifest: StyleManifest?, diagnostics: [Diagnostic]) {
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(file)
        } catch {
            return (nil, [Diagnostic(error.message, rule: .invalidJSON, at: file.location(ofByte: error.offset))])
        }
        var diagnostics: [Diagnostic] = []
        guard case .object(let object) = document.root.value else {
            return (nil, [Diagnostic("a style manifest must be a JSON object", rule: .wrongType, at: document.location(of: document.root))])
        }
        for (first, duplicate) in document.duplicateKeys() {
            diagnostics.append(Diagnostic("duplicate key '\(duplicate.key)' in style.json", rule: .duplicateKey,
                                          at: document.location(ofByte: duplicate.keyOffset),
                                          notes: [.init("first written here", at: document.location(ofByte: first.keyOffset))]))
        }
        let keys = ["$schema", "name", "description", "output", "escaper"]
        for member in object.members where !keys.contains(member.key) {
            diagnostics.append(Diagnostic("unknown key '\(member.key)' in style.json" + Suggestions.didYouMean(member.key, in: keys),
                                          rule: .unknownKey, at: document.location(ofByte: member.keyOffset)))
        }
        func string(_ key: String) -> String? {
            guard let node = object[key] else {
                diagnostics.append(Diagnostic("missing required key '\(key)' in style.json", rule: .missingKey, at: document.location(of: document.root)))
                return nil
            }
            guard case .string(let text) = node.value else {
                diagnostics.append(Diagnostic("'\(key)' in style.json must be a string", rule: .wrongType, at: document.location(of: node)))
                return nil
            }
            return text
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) -> T? where T.RawValue == String {
            guard let text = string(key) else { return nil }
            if let value = T(rawValue: text) { return value }
            let names = T.allCases.map(\.rawValue)
            diagnostics.append(Diagnostic(
                "'\(key)' in style.json must be one of \(names.joined(separator: ", ")), found '\(text)'" + Suggestions.didYouMean(text, in: names),
                rule: .invalidValue, at: object[key].map { document.location(of: $0) }))
            return nil
        }
        let name = string("name")
        let description = string("description")
        let output = choice("output", Output.self)
        let escaper = object["escaper"] == nil ? output.map(Self.defaultEscaper) : choice("escaper", EscaperName.self)
        guard let name, let description, let output, let escaper, diagnostics.isEmpty else { return (nil, diagnostics) }
        return (StyleManifest(name: name, description: description, output: output, escaper: escaper), [])
    }

    static func defaultEscaper(for output: Output) -> EscaperName {
        switch output {
        case .markdown: .markdown
        case .html: .html
        case .text, .ansi: .terminal
        }
    }
}
