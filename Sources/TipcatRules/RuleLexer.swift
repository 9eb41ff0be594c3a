/// Splits rule text (UTF-8 bytes) into tokens. Reports lexical errors and recovers from them:
/// a lone `&`, `|` or `=` is read as the operator it most likely meant, unknown characters are skipped.
struct RuleLexer {
    let bytes: [UInt8]
    var index = 0
    var tokens: [RuleToken] = []
    var diagnostics: [RuleDiagnostic] = []
    /// Where the first input was skipped without a token standing in for it (an unknown character).
    var firstDrop: Int?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func tokenize(_ bytes: [UInt8]) -> (tokens: [RuleToken], diagnostics: [RuleDiagnostic], firstDrop: Int?) {
        var lexer = RuleLexer(bytes: bytes)
        lexer.run()
        return (lexer.tokens, lexer.diagnostics, lexer.firstDrop)
    }

    private mutating func dropped(_ message: String, _ range: Range<Int>) {
        error(message, range)
        if firstDrop == nil { firstDrop = range.lowerBound }
    }

    private func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func error(_ message: String, _ range: Range<Int>) {
        diagnostics.append(RuleDiagnostic(message, rule: .ruleSyntax, range: range))
    }

    private mutating func add(_ kind: RuleToken.Kind, from start: Int, text: String = "", unit: UInt8 = 0) {
        tokens.append(RuleToken(kind: kind, range: start..<index, text: text, unit: unit))
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    mutating func run() {
        tokens.reserveCapacity(bytes.count / 3 + 1)
        while index < bytes.count {
            let start = index
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "$"):
                index += 1
                let nameStart = index
                scanIdentifier()
                if index == nameStart {
                    dropped("expected a parameter name after '$'", start..<index)
                } else {
                    add(.appParameter, from: start, text: text(nameStart..<index))
                }
            case UInt8(ascii: "#"):
                index += 1
                let nameStart = index
                scanEventName()
                if index == nameStart {
                    dropped("expected an event name after '#'", start..<index)
                } else {
                    add(.event, from: start, text: text(nameStart..<index))
                }
            case UInt8(ascii: "\""):
                scanString()
            case UInt8(ascii: "'"):
                scanSingleQuoted()
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                scanNumber()
            case UInt8(ascii: "&"), UInt8(ascii: "|"):
                let kind: RuleToken.Kind = byte == UInt8(ascii: "&") ? .andAnd : .orOr
                if self.byte(at: index + 1) == byte {
                    index += 2
                } else {
                    index += 1
                    let single = byte == UInt8(ascii: "&") ? "&" : "|"
                    error("unexpected '\(single)' — did you mean '\(single)\(single)'?", start..<index)
                    // `&&&`: the operator is already there; skip the extra character.
                    if let last = tokens.last, last.kind == kind, last.range.upperBound == start { continue }
                }
                add(kind, from: start)
            case UInt8(ascii: "="):
                switch self.byte(at: index + 1) {
                case UInt8(ascii: "="):
                    index += 2
                    tripleEquals(start, meaning: "==")
                    add(.equalEqual, from: start)
                case UInt8(ascii: ">"):
                    index += 2
                    error("'=>' is not an operator — did you mean '>='?", start..<index)
                    add(.greaterEqual, from: start)
                case UInt8(ascii: "<"):
                    index += 2
                    error("'=<' is not an operator — did you mean '<='?", start..<index)
                    add(.lessEqual, from: start)
                default:
                    index += 1
                    error("'=' is not an operator — did you mean '=='?", start..<index)
                    add(.equalEqual, from: start)
                }
            case UInt8(ascii: "!"):
                scanOperator(.bang, orWithEqual: .notEqual)
            case UInt8(ascii: "<"):
                if self.byte(at: index + 1) == UInt8(ascii: ">") {
                    index += 2
                    error("'<>' is not an operator — did you mean '!='?", start..<index)
                    add(.notEqual, from: start)
                } else {
                    scanOperator(.less, orWithEqual: .lessEqual)
                }
            case UInt8(ascii: ">"):
                scanOperator(.greater, orWithEqual: .greaterEqual)
            case UInt8(ascii: "+"): single(.plus)
            case UInt8(ascii: "-"): single(.minus)
            case UInt8(ascii: "."): single(.dot)
            case UInt8(ascii: "("): single(.leftParen)
            case UInt8(ascii: ")"): single(.rightParen)
            case UInt8(ascii: ","): single(.comma)
            case UInt8(ascii: ":"): single(.colon)
            default:
                if RuleLexer.isIdentifierStart(byte) {
                    scanIdentifier()
                    add(.identifier, from: start, text: text(start..<index))
                } else {
                    index += RuleLexer.scalarLength(leadByte: byte)
                    index = min(index, bytes.count)
                    dropped("unknown character \(RuleLexer.quotedCharacter(bytes[start..<index]))", start..<index)
                }
            }
        }
        tokens.append(RuleToken(kind: .end, range: bytes.count..<bytes.count))
    }

    private mutating func single(_ kind: RuleToken.Kind) {
        let start = index
        index += 1
        add(kind, from: start)
    }

    /// `===` and `!==` (from other languages): reported, then read as `==` / `!=`.
    private mutating func tripleEquals(_ start: Int, meaning: String) {
        guard byte(at: index) == UInt8(ascii: "=") else { return }
        index += 1
        error("'\(text(start..<index))' is not an operator — did you mean '\(meaning)'?", start..<index)
    }

    private mutating func scanOperator(_ kind: RuleToken.Kind, orWithEqual longer: RuleToken.Kind) {
        let start = index
        if byte(at: index + 1) == UInt8(ascii: "=") {
            index += 2
            if longer == .notEqual { tripleEquals(start, meaning: "!=") }
            add(longer, from: start)
        } else {
            index += 1
            add(kind, from: start)
        }
    }

    // MARK: Names

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    static func isIdentifierContinue(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    private mutating func scanIdentifier() {
        guard let first = byte(at: index), RuleLexer.isIdentifierStart(first) else { return }
        index += 1
        while let next = byte(at: index), RuleLexer.isIdentifierContinue(next) { index += 1 }
    }

    /// `[A-Za-z][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*`: a `-` belongs to the name only when a name character follows.
    private mutating func scanEventName() {
        guard let first = byte(at: index), RuleLexer.isIdentifierStart(first), first != 0x5F else { return }
        index += 1
        while let next = byte(at: index) {
            if RuleLexer.isIdentifierContinue(next) {
                index += 1
            } else if next == UInt8(ascii: "-"), let after = byte(at: index + 1), RuleLexer.isIdentifierContinue(after) {
                index += 2
            } else {
                break
            }
        }
    }

    // MARK: Numbers and durations

    private mutating func scanDigits() {
        while let next = byte(at: index), next >= 0x30, next <= 0x39 { index += 1 }
    }

    /// `3`, `2.5`, and durations `30s`, `1.5h` (a unit letter right after the number).
    private mutating func scanNumber() {
        let start = index
        scanDigits()
        var kind = RuleToken.Kind.integer
        if byte(at: index) == UInt8(ascii: "."), let after = byte(at: index + 1), after >= 0x30, after <= 0x39 {
            index += 1
            scanDigits()
            kind = .decimal
        }
        let numberEnd = index
        guard let next = byte(at: index), RuleLexer.isIdentifierStart(next) else {
            add(kind, from: start, text: text(start..<numberEnd))
            return
        }
        scanIdentifier()
        let suffix = text(numberEnd..<index)
        let units = ["s", "m", "h", "d", "w"]
        if units.contains(suffix) {
            add(.duration, from: start, text: text(start..<numberEnd), unit: next)
            return
        }
        let known: [String: String] = [
            "sec": "s", "secs": "s", "second": "s", "seconds": "s", "min": "m", "mins": "m", "minute": "m",
            "minutes": "m", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "day": "d", "days": "d",
            "wk": "w", "week": "w", "weeks": "w", "ms": "s",
        ]
        let hint = known[suffix.lowercased()].map { " — did you mean '\(text(start..<numberEnd))\($0)'?" }
            ?? "; use s, m, h, d or w (as in 5d)"
        error("unknown duration unit '\(suffix)'\(hint)", numberEnd..<index)
        // Recover as a duration in the hinted unit (or seconds) so parsing can go on.
        let unit = known[suffix.lowercased()]?.utf8.first ?? UInt8(ascii: "s")
        add(.duration, from: start, text: text(start..<numberEnd), unit: unit)
    }

    // MARK: Strings

    /// A double-quoted string with JSON escapes.
    private mutating func scanString() {
        let start = index
        index += 1
        var value: [UInt8] = []
        while true {
            guard let byte = byte(at: index), byte != 0x0A, byte != 0x0D else {
                error("unterminated string", start..<index)
                add(.string, from: start, text: String(decoding: value, as: UTF8.self))
                return
            }
            if byte == UInt8(ascii: "\"") {
                index += 1
                add(.string, from: start, text: String(decoding: value, as: UTF8.self))
                return
            }
            if byte == UInt8(ascii: "\\") {
                scanEscape(into: &value)
            } else if byte < 0x20 {
                error("control character in string; write it as an escape such as \\t", index..<index + 1)
                index += 1
            } else {
                value.append(byte)
                index += 1
            }
        }
    }

    private mutating func scanEscape(into value: inout [UInt8]) {
        let start = index
        index += 1
        guard let escaped = byte(at: index) else { return }  // the caller reports the unterminated string
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value.append(escaped)
        case UInt8(ascii: "n"): value.append(0x0A)
        case UInt8(ascii: "t"): value.append(0x09)
        case UInt8(ascii: "r"): value.append(0x0D)
        case UInt8(ascii: "b"): value.append(0x08)
        case UInt8(ascii: "f"): value.append(0x0C)
        case UInt8(ascii: "u"):
            guard let unit = scanHex4() else {
                error("expected 4 hex digits after '\\u'", start..<index)
                return
            }
            var scalarValue = unit
            if (0xD800...0xDBFF).contains(unit) {
                let save = index
                if byte(at: index) == UInt8(ascii: "\\"), byte(at: index + 1) == UInt8(ascii: "u") {
                    index += 2
                    if let low = scanHex4(), (0xDC00...0xDFFF).contains(low) {
                        scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                    }
                }
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                error("'\\u' escape is a lone surrogate; write the character or a surrogate pair", start..<index)
                return
            }
            value.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            index = min(bytes.count, start + 1 + RuleLexer.scalarLength(leadByte: escaped))
            let shown = String(decoding: bytes[start..<index], as: UTF8.self)
            error("invalid escape '\(shown)' in string; use \\\", \\\\, \\n, \\t or \\uXXXX", start..<index)
        }
    }

    private mutating func scanHex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var result: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            result = result << 4 | UInt32(digit)
        }
        index += 4
        return result
    }

    /// `'Rose'`: reported, then read as a string so the rest of the rule is still checked.
    private mutating func scanSingleQuoted() {
        let start = index
        index += 1
        while let byte = byte(at: index), byte != UInt8(ascii: "'"), byte != 0x0A { index += 1 }
        guard byte(at: index) == UInt8(ascii: "'") else {
            index = start + 1
            dropped("unknown character '''; strings are written in double quotes", start..<index)
            return
        }
        index += 1
        error("strings are written in double quotes: \"\(text(start + 1..<index - 1))\"", start..<index)
        add(.string, from: start, text: text(start + 1..<index - 1))
    }

    // MARK: Characters

    static func scalarLength(leadByte byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    /// `'@'`, or `U+0007` for invisible characters.
    static func quotedCharacter(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        if let scalar = text.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F
            || (0x80...0xA0).contains(scalar.value) || scalar.properties.generalCategory == .format {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(text)'"
    }
}
