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
    /// Appends `escape(text)` to `output`.
    public func escape(_ text: String, into output: inout String) {
        output += escape(text)
    }
}

/// The spec's HTML escaping: `&` `"` `<` `>` become `&amp;` `&quot;` `&lt;` `&gt;`.
public struct HTMLEscaper: TemplateEscaper, Hashable {
    /// The escaper.
    public init() {}

    /// `text` with `&` `"` `<` `>` replaced by entities.
    public func escape(_ text: String) -> String {
        var output = ""
        escape(text, into: &output)
        return output
    }

    /// Appends the escaped `text` to `output`, copying only when something needs escaping.
    public func escape(_ text: String, into output: inout String) {
        let special = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }
        }
        guard special != false else {
            output += text
            return
        }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            default: escaped.append(byte)
            }
        }
        output += String(decoding: escaped, as: UTF8.self)
    }
}

/// No escaping at all: for plain-text output.
public struct NoEscaper: TemplateEscaper, Hashable {
    /// The escaper.
    public init() {}

    /// `text` unchanged.
    public func escape(_ text: String) -> String { text }

    /// Appends `text` unchanged.
    public func escape(_ text: String, into output: inout String) { output += text }
}
