import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatTemplates
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

    // MARK: Style folders: nothing outside them is read

    /// A scratch folder with `Templates/<style>/` and a secret file outside it; removed by `remove()`.
    struct StyleScratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-render-\(UUID().uuidString)").path
        var templates: String { root + "/Templates" }
        var secret: String { root + "/secret.txt" }

        init(style: String, files: [String: String]) throws {
            try FileManager.default.createDirectory(atPath: templates + "/" + style, withIntermediateDirectories: true)
            try Data("TOP SECRET".utf8).write(to: URL(fileURLWithPath: secret))
            let manifest = #"{"name": "\#(style)", "description": "d", "output": "text", "escaper": "terminal"}"#
            for (name, text) in [("style.json", manifest)] + files.sorted(by: { $0.key < $1.key }) {
                try Data(text.utf8).write(to: URL(fileURLWithPath: templates + "/" + style + "/" + name))
            }
        }

        func link(_ relative: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: templates + "/" + relative, withDestinationPath: target)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    func renderShowLocation(with registry: StyleRegistry, style: String) throws -> String {
        let tip = try TipResolver(catalog: Self.catalog).tip("ShowLocationTip")
        let resolved = try TipResolver(catalog: Self.catalog).resolve(tip, locale: LocaleID.english, parameters: [:])
        return try TipRenderer(style: try registry.style(named: style), settings: RenderSettings(width: 60, colorDepth: .none)).render(resolved)
    }

    /// A partial that is a symbolic link to a file outside the style folder is refused at the tag that includes it.
    @Test func partialLinkedOutsideTheStyleIsRefused() throws {
        let scratch = try StyleScratch(style: "leaky", files: ["tip.mustache": "{{title}}\n{{>leak}}\n"])
        defer { scratch.remove() }
        try scratch.link("leaky/leak.mustache", to: scratch.secret)
        let registry = StyleRegistry(directory: scratch.templates)
        #expect(registry.diagnostics.isEmpty)
        #expect(throws: TemplateError.self) { try renderShowLocation(with: registry, style: "leaky") }
        do {
            let output = try renderShowLocation(with: registry, style: "leaky")
            Issue.record("rendered: \(output)")
        } catch let error as TemplateError {
            let text = error.diagnostic.description
            #expect(text.hasPrefix("\(scratch.templates)/leaky/tip.mustache:2:1: error: cannot load partial 'leak': \(scratch.templates)/leaky/leak.mustache: a symbolic link to '"), "\(text)")
            #expect(text.contains("outside the folder '\(scratch.templates)/leaky'"), "\(text)")
            #expect(!text.contains("TOP SECRET"))
        }
    }

    /// A link that stays inside the style folder is still followed.
    @Test func partialLinkedInsideTheStyleIsRead() throws {
        let scratch = try StyleScratch(style: "linked", files: ["tip.mustache": "{{>alias}}\n", "real.mustache": "[{{title}}]"])
        defer { scratch.remove() }
        try scratch.link("linked/alias.mustache", to: "real.mustache")
        let output = try renderShowLocation(with: StyleRegistry(directory: scratch.templates), style: "linked")
        #expect(output == "[Show your location]", "\(output)")
    }

    /// `tip.mustache` or `style.json` linked outside the style folder, or the style folder itself linked
    /// elsewhere: the style is refused with a located `invalid-style` error and never read.
    @Test func styleFilesAndFoldersLinkedOutsideAreRefused() throws {
        let scratch = try StyleScratch(style: "inside", files: ["tip.mustache": "{{title}}\n"])
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.templates + "/template", withIntermediateDirectories: true)
        try scratch.link("template/style.json", to: scratch.templates + "/inside/style.json")
        try scratch.link("template/tip.mustache", to: scratch.secret)
        try FileManager.default.createDirectory(atPath: scratch.root + "/elsewhere", withIntermediateDirectories: true)
        try Data(#"{"name": "away", "description": "d", "output": "text", "escaper": "terminal"}"#.utf8).write(to: URL(fileURLWithPath: scratch.root + "/elsewhere/style.json"))
        try Data("{{title}}".utf8).write(to: URL(fileURLWithPath: scratch.root + "/elsewhere/tip.mustache"))
        try scratch.link("away", to: scratch.root + "/elsewhere")
        let registry = StyleRegistry(directory: scratch.templates)
        let messages = registry.diagnostics.map(\.description)
        #expect(messages.contains { $0.hasPrefix("\(scratch.templates)/away/:1:1: error: the style folder is a symbolic link to '") && $0.hasSuffix("outside '\(scratch.templates)'; a style's files must be inside the templates folder [invalid-style]") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("\(scratch.templates)/template/style.json:1:1: error: '\(scratch.templates)/template/style.json' is a symbolic link to '") && $0.contains("outside the style folder") }, "\(messages)")
        #expect(registry.styles.map(\.name).contains("inside"))
        #expect(!registry.styles.map(\.name).contains("away"))
        #expect(messages.count == 2, "\(messages)")
    }

    /// A key written twice in style.json refuses the style, with both positions.
    @Test func styleManifestWithADuplicateKeyIsRefused() throws {
        let scratch = try StyleScratch(style: "twice", files: ["tip.mustache": "{{title}}"])
        defer { scratch.remove() }
        let manifest = #"{"name": "twice", "description": "d", "output": "text", "escaper": "terminal", "output": "ansi"}"#
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: scratch.templates + "/twice/style.json"))
        let registry = StyleRegistry(directory: scratch.templates)
        #expect(!registry.styles.map(\.name).contains("twice"))
        let messages = registry.diagnostics.map(\.description)
        #expect(messages == ["\(scratch.templates)/twice/style.json:1:80: error: duplicate key 'output' in style.json [duplicate-key]"], "\(messages)")
        #expect(registry.diagnostics.first?.notes == [.init("first written here", at: SourceLocation(file: scratch.templates + "/twice/style.json", line: 1, column: 39))])
    }

    /// A style whose partials fan out (each including the next ten times, nine levels deep) fails fast with a
    /// located `template-too-large` error instead of hanging or exhausting memory.
    @Test func fanOutPartialsFailFastWithALocatedError() throws {
        var files = ["tip.mustache": "{{title}}\n{{>p0}}\n", "p9.mustache": "{{title}} {{title}} {{title}}"]
        for level in 0..<9 { files["p\(level).mustache"] = String(repeating: "{{>p\(level + 1)}}", count: 10) }
        let scratch = try StyleScratch(style: "fanout", files: files)
        defer { scratch.remove() }
        let registry = StyleRegistry(directory: scratch.templates)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try renderShowLocation(with: registry, style: "fanout")
            Issue.record("the fan-out rendered")
        } catch let error as TemplateError {
            #expect(error.ruleID == "template-too-large")
            #expect(error.location?.file.hasPrefix(scratch.templates + "/fanout/p") == true, "\(String(describing: error.location))")
        }
        #expect(clock.now - start < .milliseconds(900))
    }
}
