import Testing
@testable import TipcatText

@Suite("Terminal decisions")
struct TerminalTests {
    struct ColorCase: CustomTestStringConvertible, Sendable {
        var label: String
        var choice: ColorChoice
        var variables: [String: String]
        var isTTY: Bool
        var depth: ColorDepth
        var testDescription: String { label }
    }

    static let colorCases: [ColorCase] = [
        ColorCase(label: "--color always beats NO_COLOR and a pipe", choice: .always, variables: ["NO_COLOR": "1"], isTTY: false, depth: .ansi16),
        ColorCase(label: "--color always beats TERM=dumb", choice: .always, variables: ["TERM": "dumb"], isTTY: false, depth: .ansi16),
        ColorCase(label: "--color always keeps the depth", choice: .always, variables: ["COLORTERM": "truecolor"], isTTY: false, depth: .trueColor),
        ColorCase(label: "--color never beats FORCE_COLOR and a TTY", choice: .never, variables: ["FORCE_COLOR": "1", "COLORTERM": "truecolor"], isTTY: true, depth: .none),
        ColorCase(label: "NO_COLOR beats FORCE_COLOR", choice: .auto, variables: ["NO_COLOR": "1", "FORCE_COLOR": "1"], isTTY: true, depth: .none),
        ColorCase(label: "NO_COLOR beats a TTY", choice: .auto, variables: ["NO_COLOR": "yes"], isTTY: true, depth: .none),
        ColorCase(label: "empty NO_COLOR is ignored", choice: .auto, variables: ["NO_COLOR": ""], isTTY: true, depth: .ansi16),
        ColorCase(label: "FORCE_COLOR beats a pipe", choice: .auto, variables: ["FORCE_COLOR": "1"], isTTY: false, depth: .ansi16),
        ColorCase(label: "CLICOLOR_FORCE beats a pipe", choice: .auto, variables: ["CLICOLOR_FORCE": "1"], isTTY: false, depth: .ansi16),
        ColorCase(label: "FORCE_COLOR beats TERM=dumb", choice: .auto, variables: ["FORCE_COLOR": "1", "TERM": "dumb"], isTTY: false, depth: .ansi16),
        ColorCase(label: "FORCE_COLOR=0 does not force", choice: .auto, variables: ["FORCE_COLOR": "0"], isTTY: false, depth: .none),
        ColorCase(label: "FORCE_COLOR=0 leaves a TTY colored", choice: .auto, variables: ["FORCE_COLOR": "0"], isTTY: true, depth: .ansi16),
        ColorCase(label: "empty FORCE_COLOR does not force", choice: .auto, variables: ["FORCE_COLOR": ""], isTTY: false, depth: .none),
        ColorCase(label: "CLICOLOR_FORCE=0 does not force", choice: .auto, variables: ["CLICOLOR_FORCE": "0"], isTTY: false, depth: .none),
        ColorCase(label: "FORCE_COLOR=2 raises the depth to 256", choice: .auto, variables: ["FORCE_COLOR": "2"], isTTY: false, depth: .ansi256),
        ColorCase(label: "FORCE_COLOR=3 raises the depth to 24-bit", choice: .auto, variables: ["FORCE_COLOR": "3"], isTTY: false, depth: .trueColor),
        ColorCase(label: "TERM=dumb beats a TTY", choice: .auto, variables: ["TERM": "dumb"], isTTY: true, depth: .none),
        ColorCase(label: "a TTY", choice: .auto, variables: [:], isTTY: true, depth: .ansi16),
        ColorCase(label: "a pipe", choice: .auto, variables: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], isTTY: false, depth: .none),
        ColorCase(label: "TERM=xterm", choice: .auto, variables: ["TERM": "xterm"], isTTY: true, depth: .ansi16),
        ColorCase(label: "TERM=xterm-256color", choice: .auto, variables: ["TERM": "xterm-256color"], isTTY: true, depth: .ansi256),
        ColorCase(label: "TERM=tmux-256color", choice: .auto, variables: ["TERM": "tmux-256color"], isTTY: true, depth: .ansi256),
        ColorCase(label: "COLORTERM=truecolor beats -256color", choice: .auto, variables: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], isTTY: true, depth: .trueColor),
        ColorCase(label: "COLORTERM=24bit", choice: .auto, variables: ["COLORTERM": "24bit"], isTTY: true, depth: .trueColor),
        ColorCase(label: "COLORTERM is case-insensitive", choice: .auto, variables: ["COLORTERM": "TrueColor"], isTTY: true, depth: .trueColor),
        ColorCase(label: "other COLORTERM values", choice: .auto, variables: ["COLORTERM": "yes"], isTTY: true, depth: .ansi16),
    ]

    @Test("color decision and depth", arguments: colorCases)
    func color(_ example: ColorCase) {
        let environment = TerminalEnvironment(variables: example.variables, isTTY: example.isTTY, windowColumns: nil)
        #expect(Terminal.colorDepth(choice: example.choice, environment: environment) == example.depth)
    }

    struct WidthCase: CustomTestStringConvertible, Sendable {
        var label: String
        var option: Int?
        var columns: String?
        var window: Int?
        var width: Int
        var testDescription: String { label }
    }

    static let widthCases: [WidthCase] = [
        WidthCase(label: "--width beats everything", option: 100, columns: "60", window: 120, width: 100),
        WidthCase(label: "COLUMNS beats the window", option: nil, columns: "60", window: 120, width: 60),
        WidthCase(label: "the window", option: nil, columns: nil, window: 120, width: 120),
        WidthCase(label: "80 by default", option: nil, columns: nil, window: nil, width: 80),
        WidthCase(label: "non-numeric COLUMNS is ignored", option: nil, columns: "wide", window: 120, width: 120),
        WidthCase(label: "COLUMNS=0 is ignored", option: nil, columns: "0", window: 120, width: 120),
        WidthCase(label: "negative COLUMNS is ignored", option: nil, columns: "-5", window: nil, width: 80),
        WidthCase(label: "empty COLUMNS is ignored", option: nil, columns: "", window: 90, width: 90),
        WidthCase(label: "an overflowing COLUMNS is ignored", option: nil, columns: "99999999999999999999999", window: nil, width: 80),
        WidthCase(label: "a zero window is ignored", option: nil, columns: nil, window: 0, width: 80),
        WidthCase(label: "--width 0 is ignored", option: 0, columns: "70", window: nil, width: 70),
        WidthCase(label: "huge widths are capped", option: 5_000_000, columns: nil, window: nil, width: Terminal.maximumWidth),
        WidthCase(label: "--width 1", option: 1, columns: "70", window: 100, width: 1),
    ]

    @Test("width precedence", arguments: widthCases)
    func width(_ example: WidthCase) {
        var variables: [String: String] = [:]
        if let columns = example.columns { variables["COLUMNS"] = columns }
        let environment = TerminalEnvironment(variables: variables, isTTY: true, windowColumns: example.window)
        #expect(Terminal.width(option: example.option, environment: environment) == example.width)
    }

    @Test("the real environment of a descriptor that is not a terminal")
    func current() {
        let environment = TerminalEnvironment.current(fd: -1)
        #expect(!environment.isTTY)
        #expect(environment.windowColumns == nil)
        #expect(Set(environment.variables.keys).isSubset(of: TerminalEnvironment.consultedVariables))
    }
}

@Suite("ANSI styling")
struct StylingTests {
    let esc = "\u{1B}"

    @Test("downsampling to each depth")
    func downsampling() {
        let red = Color.rgb(255, 0, 0)
        #expect(red.downsampled(to: .trueColor) == red)
        #expect(red.downsampled(to: .ansi256) == .indexed(196))
        #expect(red.downsampled(to: .ansi16) == .named(.brightRed))
        #expect(red.downsampled(to: .none) == nil)
        #expect(Color.rgb(205, 0, 0).downsampled(to: .ansi16) == .named(.red))
        #expect(Color.rgb(0, 0, 0).downsampled(to: .ansi256) == .indexed(16))
        #expect(Color.rgb(128, 128, 128).downsampled(to: .ansi256) == .indexed(244))
        #expect(Color.rgb(128, 128, 128).downsampled(to: .ansi16) == .named(.brightBlack))
        #expect(Color.rgb(255, 255, 255).downsampled(to: .ansi16) == .named(.brightWhite))
        #expect(Color.rgb(255, 135, 0).downsampled(to: .ansi256) == .indexed(208))
        #expect(Color.rgb(250, 130, 5).downsampled(to: .ansi256) == .indexed(208))
        #expect(Color.rgb(20, 20, 200).downsampled(to: .ansi16) == .named(.blue))
        #expect(Color.indexed(196).downsampled(to: .ansi16) == .named(.brightRed))
        #expect(Color.indexed(3).downsampled(to: .ansi16) == .named(.yellow))
        #expect(Color.indexed(244).downsampled(to: .ansi16) == .named(.brightBlack))
        #expect(Color.indexed(208).downsampled(to: .trueColor) == .indexed(208))
        #expect(Color.named(.cyan).downsampled(to: .ansi256) == .named(.cyan))
        #expect(Color.named(.cyan).downsampled(to: .none) == nil)
    }

    @Test("every palette color 16–255 is its own nearest entry")
    func paletteRoundTrip() {
        for index in UInt8(16)...UInt8(255) {
            let (red, green, blue) = Color.paletteRGB(index)
            #expect(Color.nearestPaletteIndex(UInt8(red), UInt8(green), UInt8(blue)) == index, "\(index)")
        }
        for named in ANSIColor.allCases {
            let rgb = named.rgb
            #expect(Color.rgb(rgb.red, rgb.green, rgb.blue).downsampled(to: .ansi16) == .named(named))
        }
    }

    @Test("SGR parameters")
    func parameters() {
        let style = TextStyle(foreground: .rgb(1, 2, 3), background: .named(.brightBlue), bold: true, dim: true, italic: true, underline: true)
        #expect(style.parameters(depth: .trueColor) == "1;2;3;4;38;2;1;2;3;104")
        #expect(style.parameters(depth: .ansi256) == "1;2;3;4;38;5;16;104")
        #expect(style.parameters(depth: .ansi16) == "1;2;3;4;30;104")
        #expect(style.parameters(depth: .none) == "")
        #expect(TextStyle(background: .indexed(208)).parameters(depth: .ansi256) == "48;5;208")
        #expect(TextStyle(foreground: .named(.white)).parameters(depth: .ansi16) == "37")
        #expect(TextStyle.plain.parameters(depth: .trueColor) == "")
    }

    @Test("apply styles each line and resets at its end")
    func apply() {
        let style = TextStyle(foreground: .named(.red), bold: true)
        #expect(ANSI.apply(style, to: "hi", depth: .ansi16) == "\(esc)[1;31mhi\(esc)[0m")
        #expect(ANSI.apply(style, to: "hi", depth: .none) == "hi")
        #expect(ANSI.apply(.plain, to: "hi", depth: .trueColor) == "hi")
        #expect(ANSI.apply(style, to: "", depth: .ansi16) == "")
        #expect(ANSI.apply(style, to: "a\n\nb\n", depth: .ansi16) == "\(esc)[1;31ma\(esc)[0m\n\n\(esc)[1;31mb\(esc)[0m\n")
        // A nested span's full reset re-opens the outer style.
        let inner = ANSI.apply(TextStyle(underline: true), to: "in", depth: .ansi16)
        #expect(ANSI.apply(style, to: "x \(inner) y", depth: .ansi16)
            == "\(esc)[1;31mx \(esc)[4min\(esc)[0m\(esc)[1;31m y\(esc)[0m")
        #expect(ANSI.apply(style, to: "x\(esc)[my", depth: .ansi16) == "\(esc)[1;31mx\(esc)[m\(esc)[1;31my\(esc)[0m")
    }

    /// `apply` copies runs between newlines and escapes at once; the result is that of styling byte by byte.
    @Test("apply agrees with a byte-by-byte styler on random text")
    func applyAgreesWithAByteByByteStyler() {
        let style = TextStyle(foreground: .named(.green), bold: true)
        let open = Array("\u{1B}[\(style.parameters(depth: .ansi16))m".utf8)
        func reference(_ text: String) -> String {
            let bytes = Array(text.utf8)
            var output: [UInt8] = []
            var lineIsOpen = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    if lineIsOpen { output += Array(ANSI.reset.utf8) }
                    lineIsOpen = false
                    output.append(byte)
                    index += 1
                    continue
                }
                if !lineIsOpen { output += open; lineIsOpen = true }
                output.append(byte)
                index += 1
                if byte == 0x1B, index + 1 < bytes.count, bytes[index] == 0x5B {
                    let length = bytes[index + 1] == 0x6D ? 2
                        : index + 2 < bytes.count && bytes[index + 1] == 0x30 && bytes[index + 2] == 0x6D ? 3 : 0
                    if length > 0 {
                        output += bytes[index..<index + length]
                        output += open
                        index += length
                    }
                }
            }
            if lineIsOpen { output += Array(ANSI.reset.utf8) }
            return String(decoding: output, as: UTF8.self)
        }
        var state: UInt64 = 99
        let pieces = ["a", "日本", "\n", "\u{1B}[m", "\u{1B}[0m", "\u{1B}[4m", "plain words ", "🙂", "\u{1B}", "["]
        for _ in 0..<2_000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for step in 0..<Int(state >> 59) * 3 {
                text += pieces[Int((state >> UInt64(step % 40)) % UInt64(pieces.count))]
            }
            #expect(ANSI.apply(style, to: text, depth: .ansi16) == reference(text), "\(text.debugDescription)")
        }
    }

    @Test("styled wrapped text: same text once stripped, widths unchanged, every line closed")
    func styledWrapping() {
        let style = TextStyle(foreground: .rgb(200, 80, 10), bold: true)
        let text = "Tip: 日本語のテキストと English words, 👨‍👩‍👧 and مَرْحَبًا to wrap"
        let lines = TextWrapper.wrap(text, width: 12)
        for line in lines {
            let styled = ANSI.apply(style, to: line, depth: .ansi256)
            #expect(ANSI.strip(styled) == line)
            #expect(DisplayWidth.of(styled) == DisplayWidth.of(line))
            #expect(styled.hasSuffix(ANSI.reset))
        }
    }

    @Test("strip removes every escape sequence and nothing else")
    func strip() {
        #expect(ANSI.strip("\(esc)[1mbold\(esc)[0m \(esc)]8;;https://x\(esc)\\link\(esc)]8;;\u{7} \u{9B}2J日本") == "bold link 日本")
        #expect(ANSI.strip("plain") == "plain")
        #expect(ANSI.strip("") == "")
    }
}
