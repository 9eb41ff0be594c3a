@_spi(Tipcat) import TipcatCore

/// A String Catalog value written with printf-style specifiers, as Xcode extracts Swift and Objective-C strings:
/// `%@`, `%d %i %u %ld %lld %lu %llu`, `%f %lf %.1f`, positional `%1$@ %2$lld`, and `%%` for a percent sign.
///
/// Arguments map by position to the source message's placeholders in source order. A `%` that does not start
/// one of these specifiers (`50 % off`, `%1$(count)lld`) is literal text.
struct PrintfFormat {
    /// What a specifier formats.
    enum Kind: Equatable {
        /// `%@`: an object (a string, or any non-numeric value).
        case object
        /// `%d`, `%lld`, `%u`, …: an integer.
        case integer
        /// `%f`, `%.1f`, `%lf`, …: a floating-point number.
        case double
    }

    /// One argument specifier.
    struct Specifier {
        /// The argument's index (0-based) among the source message's placeholders.
        var index: Int
        var kind: Kind
        /// The specifier as written (`%2$lld`).
        var text: String
        /// The UTF-8 byte offset of its `%` in the value.
        var offset: Int
    }

    enum Piece {
        case text(String)
        /// An argument, by index; `fractionDigits` for `%f` (6) and `%.Nf` (N), nil for the others.
        case argument(Int, fractionDigits: Int?)
        /// `%#@name@`: a String Catalog substitution.
        case substitution(String)
        /// `%arg` in a substitution's plural form: the substitution's number.
        case substitutionNumber
    }

    var pieces: [Piece]
    var specifiers: [Specifier]
    /// The names of the `%#@name@` substitutions, in order (with `substitutions: true`).
    var substitutions: [String] = []

    /// The format of `text`, or nil when it has neither a specifier nor `%%` (or has ICU braces: then it is a message).
    /// With `substitutions`, `%#@name@` is a substitution; with `substitutionForm`, `%arg` is its number.
    static func parse(_ text: String, substitutions allowsSubstitutions: Bool = false, substitutionForm: Bool = false) -> PrintfFormat? {
        let percent = UInt8(ascii: "%")
        // Most values have no `%`: one pass over the UTF-8 bytes in place, no copy.
        let hasPercent = text.utf8.withContiguousStorageIfAvailable { WordBytes.firstIndex(of: percent, in: $0) < $0.count }
            ?? text.utf8.contains(percent)
        guard hasPercent else { return nil }
        let bytes = Array(text.utf8)
        guard !bytes.contains(UInt8(ascii: "{")), !bytes.contains(UInt8(ascii: "}")) else { return nil }
        var pieces: [Piece] = []
        var specifiers: [Specifier] = []
        var literal: [UInt8] = []
        var sawPercentPercent = false
        var substitutions: [String] = []
        var sawNumber = false
        var next = 0
        var position = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.text(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll()
        }
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == percent else {
                literal.append(byte)
                position += 1
                continue
            }
            if position + 1 < bytes.count, bytes[position + 1] == percent {
                literal.append(percent)
                sawPercentPercent = true
                position += 2
                continue
            }
            if allowsSubstitutions, let (name, end) = substitution(bytes, at: position) {
                flush()
                pieces.append(.substitution(name))
                substitutions.append(name)
                position = end
                continue
            }
            if substitutionForm, bytes[position...].starts(with: "%arg".utf8) {
                flush()
                pieces.append(.substitutionNumber)
                sawNumber = true
                position += 4
                continue
            }
            guard let (index, kind, end, fractionDigits) = specifier(bytes, at: position) else {
                literal.append(byte)
                position += 1
                continue
            }
            let argument: Int
            if let index {
                argument = index
            } else {
                argument = next
                next += 1
            }
            flush()
            pieces.append(.argument(argument, fractionDigits: fractionDigits))
            specifiers.append(Specifier(index: argument, kind: kind, text: String(decoding: bytes[position..<end], as: UTF8.self), offset: position))
            position = end
        }
        flush()
        guard !specifiers.isEmpty || sawPercentPercent || !substitutions.isEmpty || sawNumber else { return nil }
        return PrintfFormat(pieces: pieces, specifiers: specifiers, substitutions: substitutions)
    }

    /// Reads `%#@name@` at `start`: the name and the end offset.
    private static func substitution(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        let at = UInt8(ascii: "@")
        guard start + 3 < bytes.count, bytes[start + 1] == UInt8(ascii: "#"), bytes[start + 2] == at else { return nil }
        var position = start + 3
        while position < bytes.count, bytes[position] != at {
            let byte = bytes[position]
            let isNameByte = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == UInt8(ascii: "_")
            guard isNameByte else { return nil }
            position += 1
        }
        guard position < bytes.count, position > start + 3 else { return nil }
        return (String(decoding: bytes[(start + 3)..<position], as: UTF8.self), position + 1)
    }

    /// Reads `%[N$][.P][h|l|ll|q|z]conversion` at `start`: the explicit 0-based index, the kind, the end offset and,
    /// for `f`, the digits after the point (`P`, else printf's default 6).
    private static func specifier(_ bytes: [UInt8], at start: Int) -> (Int?, Kind, Int, Int?)? {
        var position = start + 1
        func digits() -> Int? {
            var value = 0
            var count = 0
            while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57, count < 6 {
                value = value * 10 + Int(bytes[position] - 48)
                position += 1
                count += 1
            }
            return count > 0 ? value : nil
        }
        var index: Int?
        let afterPercent = position
        if let number = digits(), position < bytes.count, bytes[position] == UInt8(ascii: "$"), number > 0 {
            index = number - 1
            position += 1
        } else {
            position = afterPercent
        }
        var precision: Int?
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard let digits = digits() else { return nil }
            precision = digits
        }
        while position < bytes.count, [UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "z")].contains(bytes[position]),
              position - start < 12 {
            position += 1
        }
        guard position < bytes.count else { return nil }
        let kind: Kind
        switch bytes[position] {
        case UInt8(ascii: "@"): kind = .object
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"): kind = .integer
        case UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "g"): kind = .double
        default: return nil
        }
        let fractionDigits = bytes[position] == UInt8(ascii: "f") ? min(precision ?? 6, 15) : nil
        return (index, kind, position + 1, fractionDigits)
    }

    /// The same text as a message of tipcat's syntax, with each argument replaced by `{path}` (or `#` for
    /// `plural`, the plural argument of a plural variation's form); literal text is quoted as ICU needs.
    func message(paths: [String], pluralForm: Bool, pluralArgument: String?, substitutions: [String: String] = [:]) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                for character in text {
                    switch character {
                    case "'": result += "''"
                    case "{", "}": result += "'\(character)'"
                    case "#" where pluralForm: result += "'#'"
                    default: result.append(character)
                    }
                }
            case .substitution(let name):
                result += substitutions[name] ?? ""
            case .substitutionNumber:
                result += "#"
            case .argument(let index, let fractionDigits):
                guard index < paths.count else { continue }
                if let fractionDigits {
                    // `%.1f` keeps its digits: `{path, number, ::.0}` (`integer` for `%.0f`).
                    let style = fractionDigits == 0 ? "integer" : "::." + String(repeating: "0", count: fractionDigits)
                    result += "{\(paths[index]), number, \(style)}"
                } else {
                    result += pluralForm && paths[index] == pluralArgument ? "#" : "{\(paths[index])}"
                }
            }
        }
        return result
    }
}
