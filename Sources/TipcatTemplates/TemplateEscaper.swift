/// Turns interpolated data into text that is safe in the output format.
///
/// `{{name}}` goes through the escaper; `{{{name}}}` and `{{&name}}` bypass it. Output styles (HTML,
/// Markdown, ANSI terminals…) each bring their own escaper.
public protocol TemplateEscaper: Sendable {
    /// The escaped form of `text`.
    func escape(_ text: String) -> String
    /// Appends the escaped form of `text` to `output`. The default calls ``escape(_:)``; implement it to
    /// avoid the intermediate string.
    func escape(_ text: String, into output: inout String)
}

extension TemplateEscaper {
    public func escape(_ text: String, into output: inout String) {
        output += escape(text)
    }
}

/// The spec's HTML escaping: `&` `"` `<` `>` become `&amp;` `&quot;` `&lt;` `&gt;`.
public struct HTMLEscaper: TemplateEscaper, Hashable {
    public init() {}

    public func escape(_ text: String) -> String {
        var output = ""
        escape(text, into: &output)
        return output
    }

    public func escape(_ text: String, into output: inout String) {
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let replacement: String?
            switch utf8[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            default: replacement = nil
            }
            if let replacement {
                if runStart != index { output += Substring(text.utf8[runStart..<index]) }
                output += replacement
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if runStart == utf8.startIndex {
            output += text
        } else if runStart != utf8.endIndex {
            output += Substring(text.utf8[runStart...])
        }
    }
}

/// No escaping at all: for plain-text output.
public struct NoEscaper: TemplateEscaper, Hashable {
    public init() {}

    public func escape(_ text: String) -> String { text }

    public func escape(_ text: String, into output: inout String) { output += text }
}
