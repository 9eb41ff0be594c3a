public import TipcatCore

extension Message {
    /// Formats the message, looking values up by dotted path (`"trail.name"`).
    ///
    /// - `{path}` prints strings as they are and numbers as `NumberText` does (no locale grouping); other values
    ///   print their `displayText`.
    /// - Plural: an exact `=N` case wins; otherwise the CLDR category of (number − offset) in `locale`, taken from
    ///   the operands of its printed form (so `2.0` is written `2` and selects like the integer), then `other`.
    ///   `#` prints number − offset.
    /// - Select: a string value, `true`/`false` for bools, or an int's digits picks the case; otherwise `other`.
    ///   A select with a `nil` case picks it when the argument has no value (an absent optional parameter), and
    ///   only then: a present value never selects `nil`, and with no value the other cases are not tried.
    public func format(locale: LocaleID, value: (String) -> Value?) throws(MessageFormatError) -> String {
        if isPlainText { return text }
        var output = ""
        try MessageFormatter(locale: locale).append(parts, pound: nil, value: value, to: &output)
        return output
    }

    /// `format(locale:value:)`, with every substituted string value passed through `escapeValue` — for a message
    /// that is inline Markdown, so that a value is always literal text (`InlineMarkup.escape`). Numbers and `#`
    /// print digits and signs only, which need no escaping.
    public func format(
        locale: LocaleID, value: (String) -> Value?, escapeValue: @escaping (String) -> String
    ) throws(MessageFormatError) -> String {
        if isPlainText { return text }
        var output = ""
        try MessageFormatter(locale: locale, escapeValue: escapeValue).append(parts, pound: nil, value: value, to: &output)
        return output
    }
}

/// A number selected by a plural argument, after the offset: what `#` prints.
enum PluralNumber {
    case int(Int)
    case double(Double)

    var text: String {
        switch self {
        case .int(let value): NumberText.integer(value)
        case .double(let value): NumberText.format(value)
        }
    }

    var operands: PluralOperands? {
        switch self {
        case .int(let value): PluralOperands(value)
        case .double(let value): PluralOperands(value)
        }
    }
}

struct MessageFormatter {
    let locale: LocaleID
    /// Applied to every substituted string value; nil leaves values as they are.
    var escapeValue: ((String) -> String)?

    init(locale: LocaleID, escapeValue: ((String) -> String)? = nil) {
        self.locale = locale
        self.escapeValue = escapeValue
    }

    func lookup(_ path: String, in value: (String) -> Value?) throws(MessageFormatError) -> Value {
        guard let found = value(path) else { throw MessageFormatError("no value for '\(path)'", path: path) }
        return found
    }

    func append(
        _ parts: [MessagePart], pound: PluralNumber?, value: (String) -> Value?, to output: inout String
    ) throws(MessageFormatError) {
        for part in parts {
            switch part {
            case .text(let text):
                output += text
            case .pound:
                output += pound?.text ?? "#"
            case .placeholder(let path):
                switch try lookup(path, in: value) {
                case .int(let number): output += NumberText.integer(number)
                case .double(let number): output += NumberText.format(number)
                case let other: output += escapeValue.map { $0(other.displayText) } ?? other.displayText
                }
            case .number(let path, let minimum, let maximum):
                switch try lookup(path, in: value) {
                case .int(let number):
                    output += maximum == nil ? NumberText.integer(number) : NumberText.fixed(Double(number), minimum: minimum, maximum: maximum ?? 0, integer: number)
                case .double(let number):
                    output += maximum.map { NumberText.fixed(number, minimum: minimum, maximum: $0) } ?? NumberText.format(number)
                case let other:
                    throw MessageFormatError("number argument '\(path)' is not a number: \(other)", path: path)
                }
            case .plural(let path, let offset, let cases):
                let number: PluralNumber
                switch try lookup(path, in: value) {
                case .int(let int): number = .int(int)
                case .double(let double): number = .double(double)
                case let other:
                    throw MessageFormatError("plural argument '\(path)' is not a number: \(other)", path: path)
                }
                let chosen = try select(number, offset: offset, cases: cases, path: path)
                try append(chosen.parts, pound: chosen.shifted, value: value, to: &output)
            case .select(let path, let cases):
                if let absent = cases.first(where: { $0.selector == Message.absentSelector }) {
                    guard value(path) != nil else {
                        try append(absent.parts, pound: pound, value: value, to: &output)
                        continue
                    }
                }
                let key: String
                switch try lookup(path, in: value) {
                case .string(let string): key = string
                case .bool(let bool): key = bool ? "true" : "false"
                case .int(let int): key = String(int)
                case let other where cases.contains(where: { $0.selector == Message.absentSelector }):
                    // `{x, select, nil {…} other {…}}` tells only absence from presence, for any value.
                    key = other.displayText
                case let other:
                    throw MessageFormatError("select argument '\(path)' is not a string or bool: \(other)", path: path)
                }
                let present = cases.lazy.filter { $0.selector != Message.absentSelector }
                guard let chosen = present.first(where: { $0.selector == key }) ?? present.first(where: { $0.selector == "other" })
                else {
                    throw MessageFormatError("select argument '\(path)' has no case for '\(key)' and no 'other'", path: path)
                }
                try append(chosen.parts, pound: pound, value: value, to: &output)
            }
        }
    }

    /// Picks the plural case: exact `=N` on the number itself, then the CLDR category of number − offset, then other.
    func select(_ number: PluralNumber, offset: Int, cases: [MessageCase], path: String) throws(MessageFormatError)
        -> (parts: [MessagePart], shifted: PluralNumber)
    {
        let shifted: PluralNumber
        switch number {
        case .int(let int):
            let (difference, overflow) = int.subtractingReportingOverflow(offset)
            shifted = overflow ? .double(Double(int) - Double(offset)) : .int(difference)
        case .double(let double):
            shifted = .double(double - Double(offset))
        }
        for messageCase in cases where messageCase.selector.hasPrefix("=") {
            guard let exact = Int(messageCase.selector.dropFirst()) else { continue }
            let matches: Bool
            switch number {
            case .int(let int): matches = int == exact
            case .double(let double): matches = double == Double(exact)
            }
            if matches { return (messageCase.parts, shifted) }
        }
        let category = shifted.operands.map { PluralRules.category(for: $0, locale: locale) } ?? .other
        guard let chosen = cases.first(where: { $0.selector == category.rawValue }) ?? cases.first(where: { $0.selector == "other" })
        else {
            throw MessageFormatError("plural argument '\(path)' has no case for '\(category)' and no 'other'", path: path)
        }
        return (chosen.parts, shifted)
    }
}
