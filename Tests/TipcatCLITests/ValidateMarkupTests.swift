import Foundation
import Testing
import TipcatTestSupport

/// Inline Markdown in texts, as `tipcat validate` and `tipcat render` see it.
@Suite struct ValidateMarkupTests {
    /// The tip file up to its message string; the message's first character is at column `prefix.count + 2`.
    static let prefix = #"{"id": "Marked", "title": "Marked", "message": "#
    private func catalog(message: String, translation: String? = nil) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [message]), as: UTF8.self).dropFirst().dropLast()
        try directory.write("Catalog/tips/Marked.json", Data((Self.prefix + quoted + "}").utf8))
        return (directory, catalog)
    }

    @Test func malformedMarkupIsAWarningAtItsCharacter() throws {
        let (directory, catalog) = try catalog(message: "Tap **Save to keep it")
        _ = directory
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        // `**` is the message's 5th character.
        #expect(result.stdout.contains(
            "\(catalog)/tips/Marked.json:1:\(Self.prefix.count + 6): warning: '**' opens emphasis that is never closed; write '\\*' for a literal '*' in the message of Marked [malformed-markup]"),
            "\(result.stdout)")
    }

    @Test func aJavaScriptLinkIsAnError() throws {
        let (directory, catalog) = try catalog(message: "See [the map](javascript:alert(1))")
        _ = directory
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("the link 'javascript:alert(1)' uses 'javascript:'; tips link to 'https:', 'http:' or 'mailto:' addresses in the message of Marked [unsafe-link]"),
                "\(result.stdout)")
        #expect(result.stdout.contains("/tips/Marked.json:1:\(Self.prefix.count + 6): error: "), "\(result.stdout)")
    }

    @Test func renderShowsMarkupPerStyleAndHyperlinksOnlyWhereSupported() throws {
        let (directory, catalog) = try catalog(message: "Tap **Save** or see [help](https://example.com/help)")
        _ = directory
        let plain = tipcat("render", "Marked", "--catalog", catalog)
        #expect(plain.stdout.contains("Tap Save or see help\n"), "\(plain.stdout)")
        let markdown = tipcat("render", "Marked", "--style", "markdown", "--catalog", catalog)
        #expect(markdown.stdout.contains("Tap **Save** or see [help](<https://example.com/help>)"), "\(markdown.stdout)")

        let osc8 = "\u{1B}]8;;https://example.com/help\u{1B}\\"
        let forced = tipcat("render", "Marked", "--style", "ansi", "--color", "always", "--catalog", catalog, environment: ["FORCE_HYPERLINK": "1"])
        #expect(forced.stdout.contains(osc8), "\(forced.stdout.debugDescription)")
        let vte = tipcat("render", "Marked", "--style", "ansi", "--color", "always", "--catalog", catalog, environment: ["VTE_VERSION": "7200"])
        #expect(vte.stdout.contains(osc8))
        let unknownTerminal = tipcat("render", "Marked", "--style", "ansi", "--color", "always", "--catalog", catalog, environment: ["TERM": "xterm"])
        #expect(!unknownTerminal.stdout.contains("\u{1B}]8;"))
        #expect(unknownTerminal.stdout.contains("(https://example.com/help)"))
        let noColor = tipcat("render", "Marked", "--style", "ansi", "--catalog", catalog, environment: ["NO_COLOR": "1", "FORCE_HYPERLINK": "1"])
        #expect(!noColor.stdout.contains("\u{1B}"), "\(noColor.stdout.debugDescription)")
        let dumb = tipcat("render", "Marked", "--style", "ansi", "--catalog", catalog, environment: ["TERM": "dumb", "FORCE_HYPERLINK": "1"])
        #expect(!dumb.stdout.contains("\u{1B}"))
    }
}
