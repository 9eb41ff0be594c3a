import TipcatCore
import TipcatJSON
import TipcatText

/// Prints findings in the format a reader or a tool expects.
enum DiagnosticFormat: String, CaseIterable {
    /// `path:line:col: error: message [rule-id]`, as swiftc prints.
    case text
    /// One JSON document with every finding, for tools.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`).
    case github

    func render(_ diagnostics: [Diagnostic]) -> String {
        switch self {
        case .text:
            return diagnostics.map(DiagnosticFormat.textLines).joined()
        case .github:
            return diagnostics.map(DiagnosticFormat.githubLine).joined()
        case .json:
            let items: [JSONValue] = diagnostics.map { diagnostic in
                var pairs: [(String, JSONValue)] = [
                    ("severity", .string(diagnostic.severity.rawValue)),
                    ("rule", .string(diagnostic.ruleID)),
                    ("message", .string(diagnostic.message)),
                ]
                if let location = diagnostic.location {
                    pairs += [("file", .string(location.file)), ("line", .int(location.line)), ("column", .int(location.column))]
                }
                if !diagnostic.notes.isEmpty {
                    pairs.append(("notes", .array(diagnostic.notes.map { note in
                        var notePairs: [(String, JSONValue)] = [("message", .string(note.message))]
                        if let location = note.location {
                            notePairs += [("file", .string(location.file)), ("line", .int(location.line)), ("column", .int(location.column))]
                        }
                        return .object(notePairs)
                    })))
                }
                return .object(pairs)
            }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.filter { $0.severity == .warning }.count
            let document: JSONValue = .object([
                ("diagnostics", .array(items)),
                ("errors", .int(errors)),
                ("warnings", .int(warnings)),
            ])
            return JSONText.escapingTerminalControls(document.serialized(pretty: true)) + "\n"
        }
    }

    /// One line per finding and per note: a newline in a file name or a quoted value is written `\n`, so
    /// input can never start a line of its own (and pass for another finding).
    static func textLines(_ diagnostic: Diagnostic) -> String {
        var diagnostic = diagnostic
        diagnostic.message = oneLine(diagnostic.message)
        if let file = diagnostic.location?.file { diagnostic.location?.file = oneLine(file) }
        var text = diagnostic.description + "\n"
        for note in diagnostic.notes {
            var location = note.location
            if let file = location?.file { location?.file = oneLine(file) }
            text += (location.map { "\($0): " } ?? "") + "note: \(oneLine(note.message))\n"
        }
        return text
    }

    /// `text` with CR and LF written as `\r` and `\n`.
    static func oneLine(_ text: String) -> String {
        text.replacingAll("\r", with: "\\r").replacingAll("\n", with: "\\n")
    }

    static func githubLine(_ diagnostic: Diagnostic) -> String {
        let command: String
        switch diagnostic.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .note: command = "notice"
        }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties += ["file=\(escapeProperty(location.file))", "line=\(location.line)", "col=\(location.column)"]
        }
        properties.append("title=\(escapeProperty(diagnostic.ruleID))")
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(diagnostic.message))\n"
    }

    /// Workflow command data escaping: `%`, CR, LF.
    static func escapeData(_ text: String) -> String {
        text.replacingAll("%", with: "%25").replacingAll("\r", with: "%0D").replacingAll("\n", with: "%0A")
    }

    /// Workflow command property escaping: data escaping plus `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingAll(":", with: "%3A").replacingAll(",", with: "%2C")
    }
}

extension String {
    /// Replaces every occurrence of `target` (Foundation-free).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
