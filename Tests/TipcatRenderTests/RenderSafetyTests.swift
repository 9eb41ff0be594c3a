import Testing
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatText
@testable import TipcatRender

/// Values never carry control sequences or Markdown syntax into the output.
@Suite struct RenderSafetyTests {
    static let catalog = GoldenTests.catalog

    func render(style: String, name: String, depth: ColorDepth = .none, width: Int = 60) throws -> String {
        let tip = try TipResolver(catalog: Self.catalog).tip("NewTrailTip")
        let trail = Value.record(["id": .string("x"), "name": .string(name), "region": .string("Wasatch")])
        let resolved = try TipResolver(catalog: Self.catalog).resolve(tip, locale: LocaleID.english, parameters: ["trail": trail])
        return try TipRenderer(style: try GoldenTests.registry.style(named: style), settings: RenderSettings(width: width, colorDepth: depth)).render(resolved)
    }

    static let hostile = [
        "Trail\u{1B}]52;c;ZXZpbA==\u{07}",  // OSC 52: write the clipboard
        "Trail\u{1B}[2J",                   // clear the screen
        "Trail\u{9B}31m",                   // C1 CSI
        "Trail\u{202E}lanruoj",             // right-to-left override
        "Trail\r\u{1B}[1A",                 // carriage return, cursor up
    ]

    @Test(arguments: ["plain", "ansi", "markdown"])
    func controlSequencesAreRemoved(_ style: String) throws {
        for name in Self.hostile {
            let output = try render(style: style, name: name)
            for forbidden: Unicode.Scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\r"] {
                #expect(!output.unicodeScalars.contains(forbidden), "\(style): U+\(String(forbidden.value, radix: 16)) survived in \(output.debugDescription)")
            }
        }
    }

    @Test func colouredOutputHasOnlyOurOwnEscapes() throws {
        let output = try render(style: "ansi", name: "Trail\u{1B}]52;c;ZXZpbA==\u{07}", depth: .trueColor)
        #expect(output.contains("\u{1B}["))
        #expect(!output.contains("\u{1B}]"))
        #expect(!output.unicodeScalars.contains("\u{07}"))
    }

    @Test func markdownValuesStayLiteral() throws {
        let link = try render(style: "markdown", name: "[x](javascript:alert(1))")
        #expect(link.contains(#"**\[x\]\(javascript\:alert\(1\)\) is now available**"#), "\(link)")
        let html = try render(style: "markdown", name: "<img src=x onerror=alert(1)>")
        #expect(html.contains(#"\<img src\=x onerror\=alert\(1\)\>"#), "\(html)")
        // No unescaped '<' can open a tag: each one follows a backslash.
        let bytes = Array(html.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "<") {
            #expect(index > 0 && bytes[index - 1] == UInt8(ascii: "\\"))
        }
    }

    @Test(arguments: ["en", "ja"])
    func nothingIsWiderThanTheWidth(_ localeText: String) throws {
        let locale = try #require(LocaleID(localeText))
        for width in [20, 40, 61] {
            for tip in Self.catalog.tips {
                for styleName in ["plain", "ansi"] {
                    let resolved = try TipResolver(catalog: Self.catalog).resolve(tip, locale: locale, parameters: [:], useExample: true)
                    let output = try TipRenderer(style: try GoldenTests.registry.style(named: styleName), settings: RenderSettings(width: width, colorDepth: .trueColor)).render(resolved)
                    for line in output.split(separator: "\n") {
                        #expect(DisplayWidth.of(line) <= width, "\(styleName) \(tip.id) \(localeText) at \(width): \(line)")
                    }
                }
            }
        }
    }

    @Test func stylesDoNotLeakAcrossWrappedLines() {
        let lines = Card.reflowStyles(["\u{1B}[1mbold start", "bold end\u{1B}[0m plain"])
        #expect(lines == ["\u{1B}[1mbold start\u{1B}[0m", "\u{1B}[1mbold end\u{1B}[0m plain"])
    }
}
