/// The CLDR plural operands of a number as written (UTS #35, "Plural Operand Meanings").
///
/// Numbers keep their visible form: `1` and `1.0` differ (`v` = 0 vs 1), which changes the category in many
/// languages. Integer and fraction digits are kept modulo 10^18 with a flag when the real value is larger, so
/// numbers of any length work: every CLDR modulus divides 10^18, and a truncated value equals no small constant.
public struct PluralOperands: Sendable, Hashable {
    /// The absolute value (approximate for very long numbers).
    public private(set) var n: Double
    /// The integer digits of `n` (modulo 10^18 when `isIntegerTruncated`).
    public private(set) var i: Int
    /// The number of visible fraction digits, with trailing zeros.
    public private(set) var v: Int
    /// The number of visible fraction digits, without trailing zeros.
    public private(set) var w: Int
    /// The visible fraction digits as an integer, with trailing zeros (modulo 10^18 when `isFractionTruncated`).
    public private(set) var f: Int
    /// The visible fraction digits as an integer, without trailing zeros (modulo 10^18 when `isTrimmedFractionTruncated`).
    public private(set) var t: Int
    /// The compact decimal exponent (`1.2c3` → 3); 0 when none was written.
    public private(set) var c: Int
    /// Whether the integer part is 10^18 or more (then `i` holds only its low 18 digits).
    public private(set) var isIntegerTruncated: Bool
    /// Whether `f` is 10^18 or more (then it holds only its low 18 digits).
    public private(set) var isFractionTruncated: Bool
    /// Whether `t` is 10^18 or more (then it holds only its low 18 digits).
    public private(set) var isTrimmedFractionTruncated: Bool

    /// The exponent operand; CLDR uses `e` and `c` as synonyms.
    public var e: Int { c }

    /// The operands of an integer.
    public init(_ value: Int) {
        let magnitude = UInt64(value.magnitude)
        n = Double(magnitude)
        i = Int(magnitude % PluralOperands.limit)
        isIntegerTruncated = magnitude >= PluralOperands.limit
        v = 0
        w = 0
        f = 0
        t = 0
        c = 0
        isFractionTruncated = false
        isTrimmedFractionTruncated = false
    }

    /// The operands of a number as written: `"-3"`, `"+1.50"`, `"1.2e3"`, `"1.2c3"` (compact exponent, the `c`/`e`
    /// operand), returns nil for anything else (empty text, `".5"`, `"5."`, `"1e-3"`, spaces, grouping).
    ///
    /// The exponent shifts the decimal point as CLDR does: `1.2c3` has `n` = 1200, `i` = 1200, `v` = 0, `c` = 3.
    public init?(_ text: String) {
        guard let operands = PluralOperands.parse(Array(text.utf8)) else { return nil }
        self = operands
    }

    /// The operands of a double formatted in shortest round-trip form (`2.0` → `"2"`, `1.5` → `"1.5"`);
    /// nil for NaN and infinities. See `NumberText`.
    public init?(_ value: Double) {
        guard let text = NumberText.shortest(value), let operands = PluralOperands(text) else { return nil }
        self = operands
    }

    static let limit: UInt64 = 1_000_000_000_000_000_000

    /// Accumulates decimal digits modulo 10^18, remembering whether the exact value reached 10^18.
    struct DigitAccumulator {
        var low: UInt64 = 0
        var truncated = false

        mutating func append(_ digit: UInt64) {
            // low < 10^18, so low * 10 + 9 < 2^64.
            let next = low * 10 + digit
            if next >= PluralOperands.limit { truncated = true }
            low = next % PluralOperands.limit
        }
    }

    private init(n: Double, i: DigitAccumulator, fraction: ArraySlice<UInt8>, exponent: Int) {
        self.n = n
        self.i = Int(i.low)
        isIntegerTruncated = i.truncated
        var significant = fraction.count
        while significant > 0, fraction[fraction.startIndex + significant - 1] == UInt8(ascii: "0") { significant -= 1 }
        var f = DigitAccumulator()
        var t = DigitAccumulator()
        for (offset, byte) in fraction.enumerated() {
            let digit = UInt64(byte - UInt8(ascii: "0"))
            f.append(digit)
            if offset < significant { t.append(digit) }
        }
        v = fraction.count
        w = significant
        self.f = Int(f.low)
        self.t = Int(t.low)
        isFractionTruncated = f.truncated
        isTrimmedFractionTruncated = t.truncated
        c = exponent
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func parse(_ bytes: [UInt8]) -> PluralOperands? {
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = bytes[integerStart..<index]
        guard !integerDigits.isEmpty else { return nil }
        var fractionDigits = bytes[index..<index]
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fractionDigits = bytes[fractionStart..<index]
            guard !fractionDigits.isEmpty else { return nil }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") || bytes[index] == UInt8(ascii: "c") {
            index += 1
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) {
                let (shifted, overflow1) = exponent.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = shifted.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                exponent = sum
                index += 1
            }
            guard index > exponentStart else { return nil }
        }
        guard index == bytes.count else { return nil }

        // Shift the decimal point right by `exponent` places: fraction digits move into the integer part,
        // then zeros are appended (only the first 19 matter for the low digits and the truncation flag).
        let moved = min(exponent, fractionDigits.count)
        var integer = DigitAccumulator()
        for byte in integerDigits { integer.append(UInt64(byte - UInt8(ascii: "0"))) }
        for byte in fractionDigits.prefix(moved) { integer.append(UInt64(byte - UInt8(ascii: "0"))) }
        for _ in 0..<min(exponent - moved, 19) { integer.append(0) }

        var mantissa = String(decoding: bytes[integerStart..<(fractionDigits.isEmpty ? integerDigits.endIndex : fractionDigits.endIndex)], as: UTF8.self)
        if exponent != 0 { mantissa += "e" + String(exponent) }
        let n = Double(mantissa) ?? .infinity
        return PluralOperands(n: n, i: integer, fraction: fractionDigits.dropFirst(moved), exponent: exponent)
    }
}

/// The operand names of CLDR plural rules, for the generated rule code.
enum PluralOperandName {
    case n, i, v, w, f, t, c, e
}

extension PluralOperands {
    /// The operand's integer value for a rule relation, reduced `mod` a power of ten when `mod` > 0.
    ///
    /// Returns -1 — which equals no CLDR constant — when the operand has no such integer value: `n` with a non-zero
    /// fraction, or a truncated (≥ 10^18) value without a modulus.
    func operand(_ name: PluralOperandName, mod: Int = 0) -> Int {
        let value: Int
        let truncated: Bool
        switch name {
        case .n:
            guard f == 0, !isFractionTruncated else { return -1 }
            value = i
            truncated = isIntegerTruncated
        case .i:
            value = i
            truncated = isIntegerTruncated
        case .f:
            value = f
            truncated = isFractionTruncated
        case .t:
            value = t
            truncated = isTrimmedFractionTruncated
        case .v: return mod > 0 ? v % mod : v
        case .w: return mod > 0 ? w % mod : w
        case .c, .e: return mod > 0 ? c % mod : c
        }
        if mod > 0 { return value % mod }
        return truncated ? -1 : value
    }
}
