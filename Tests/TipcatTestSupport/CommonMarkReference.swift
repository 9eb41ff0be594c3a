import Foundation
public import TipcatText

/// Python's CommonMark implementations (`commonmark`, `markdown-it-py`, installed by `make test`'s dependencies)
/// as the reference for tipcat's Markdown: escaping, inline markup parsing and Markdown output.
public enum CommonMarkReference {
    /// Renders every value with Python's CommonMark implementations (`commonmark`, `markdown-it-py`) that are
    /// installed; nil when none is.
    public static func render(_ documents: [String]) throws -> [String: [String]]? {
        let script = """
        import json, sys
        docs = json.load(sys.stdin)
        out = {}
        try:
            import commonmark
            out["commonmark"] = [commonmark.commonmark(d) for d in docs]
        except ImportError:
            pass
        try:
            from markdown_it import MarkdownIt
            md = MarkdownIt("commonmark")
            out["markdown-it"] = [md.render(d) for d in docs]
        except ImportError:
            pass
        json.dump(out, sys.stdout)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let payload = try JSONSerialization.data(withJSONObject: documents)
        input.fileHandleForWriting.write(payload)
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let result = try JSONSerialization.jsonObject(with: data) as? [String: [String]], !result.isEmpty
        else { return nil }
        return result
    }

    /// The HTML CommonMark renderers write for a paragraph's inlines (titles are not kept by the parser, so they
    /// are compared without).
    public static func html(_ nodes: [InlineMarkup.Node]) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        return nodes.map { node in
            switch node {
            case .text(let text): escape(text)
            case .code(let code): "<code>" + escape(code) + "</code>"
            case .emphasis(let children): "<em>" + html(children) + "</em>"
            case .strong(let children): "<strong>" + html(children) + "</strong>"
            case .link(let destination, let children): "<a href=\"" + escape(destination) + "\">" + html(children) + "</a>"
            case .image(let source, let children):
                "<img src=\"" + escape(source) + "\" alt=\"" + escape(InlineMarkup(nodes: children, problems: []).visibleText) + "\" />"
            }
        }.joined()
    }
}
