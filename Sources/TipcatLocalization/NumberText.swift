#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The plain number formatting used by messages: no locale grouping, no exponent, ASCII digits.
///
/// - Integers print as their digits with a leading `-` when negative: `1234`, `-5`.
/// - Doubles print in the shortest form that reads back as the same double (Swift's round-trip digits), written
///   out positionally: `1.5`, `0.000012`, `100000000000000000000`; integral doubles have no fraction (`2.0` → `2`).
/// - NaN and infinities have no number text (nil); messages print them as `NaN`, `∞`, `-∞`.
enum NumberText {
    static func integer(_ value: Int) -> String { String(value) }

    /// `value` with at most `maximum` digits after the point, rounded as printf's `%.Nf` rounds (the exact binary
    /// value, ties to even), then trailing zeros beyond `minimum` dropped (and the point when none is left).
    /// `integer` is the exact value when it came from an Int (a Double cannot hold every Int).
    static func fixed(_ value: Double, minimum: Int, maximum: Int, integer: Int? = nil) -> String {
        if let integer, minimum == 0 { return String(integer) }
        guard value.isFinite else { return format(value) }
        let digits = Int32(min(max(maximum, 0), 15))
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([digits, value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        guard count > 0, Int(count) < buffer.count else { return format(value) }
        var text = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if maximum > minimum, text.contains(".") {
            var fraction = text.utf8.count - 1 - (text.utf8.firstIndex(of: UInt8(ascii: ".")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) } ?? 0)
            while fraction > minimum, text.hasSuffix("0") {
                text.removeLast()
                fraction -= 1
            }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text
    }

    /// `shortest(value)`, or `NaN`, `∞`, `-∞` for non-finite values.
    static func format(_ value: Double) -> String {
        if let text = shortest(value) { return text }
        if value.isNaN { return "NaN" }
        return value < 0 ? "-∞" : "∞"
    }

    static func shortest(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 9.0e18 {
            return String(Int(value))
        }
        return positional(value.description)
    }

    /// Rewrites Swift's `description` of a finite double (`1.5`, `1e-05`, `-1.2345e+20`) without the exponent.
    static func positional(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let exponentIndex = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
            return text
        }
        let negative = bytes.first == UInt8(ascii: "-")
        let mantissa = bytes[(negative ? 1 : 0)..<exponentIndex]
        guard let exponent = Int(String(decoding: bytes[(exponentIndex + 1)...], as: UTF8.self)) else { return text }
        var digits: [UInt8] = []
        var pointPosition = 0
        var seenPoint = false
        for byte in mantissa {
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                digits.append(byte)
                if !seenPoint { pointPosition += 1 }
            }
        }
        pointPosition += exponent
        // Drop trailing zeros of the fraction ("1.0e-05" style mantissas).
        while digits.count > max(pointPosition, 1), digits.last == UInt8(ascii: "0") { digits.removeLast() }
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if pointPosition <= 0 {
            out += [UInt8(ascii: "0"), UInt8(ascii: ".")]
            out += [UInt8](repeating: UInt8(ascii: "0"), count: -pointPosition)
            out += digits
        } else if pointPosition >= digits.count {
            out += digits
            out += [UInt8](repeating: UInt8(ascii: "0"), count: pointPosition - digits.count)
        } else {
            out += digits[..<pointPosition]
            out.append(UInt8(ascii: "."))
            out += digits[pointPosition...]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
