// tipcat-gen-plurals PATH/plurals.json
//
// Reads CLDR's cardinal plural rules (cldr-json `supplemental/plurals.json`) and prints a Swift source file that
// implements them for TipcatLocalization: one compiled rule set per distinct set of rules, shared by every locale
// that uses it, and a table locale → rule set. The rule syntax is parsed here, never at runtime.
//
// The output depends only on the JSON content (sorted keys, canonical rule text), so regenerating is idempotent.

import Foundation

// MARK: - Rule syntax (UTS #35, "Language Plural Rules")
//
//   condition     = and_condition ('or' and_condition)*
//   and_condition = relation ('and' relation)*
//   relation      = expr ('=' | '!=') range_list
//   expr          = operand (('mod' | '%') value)?
//   range_list    = (range | value) (',' (range | value))*
//   range         = value '..' value

struct GeneratorError: Error, CustomStringConvertible {
    var description: String
}

struct Relation: Hashable {
    var operand: String
    var modulus: Int?
    var negated: Bool
    /// Closed ranges; a single value is a range with equal bounds.
    var items: [ClosedRange<Int>]
}

/// Alternatives (`or`) of conjunctions (`and`).
typealias Condition = [[Relation]]

enum Token: Equatable {
    case word(String)
    case number(Int)
    case percent, equals, notEquals, dotDot, comma
}

let operands: Set<String> = ["n", "i", "v", "w", "f", "t", "c", "e"]
/// Operands whose values are kept modulo 10^18 at runtime: a modulus must be a power of ten dividing 10^18.
let digitOperands: Set<String> = ["n", "i", "f", "t"]

func tokenize(_ text: String) throws -> [Token] {
    var tokens: [Token] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
    func isLetter(_ s: Unicode.Scalar) -> Bool { (s.value >= 97 && s.value <= 122) || (s.value >= 65 && s.value <= 90) }
    while index < scalars.count {
        let scalar = scalars[index]
        if scalar == " " || scalar == "\t" || scalar == "\n" {
            index += 1
        } else if isDigit(scalar) {
            var value = 0
            while index < scalars.count, isDigit(scalars[index]) {
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = shifted.addingReportingOverflow(Int(scalars[index].value - 48))
                if overflow1 || overflow2 { throw GeneratorError(description: "number too large in rule '\(text)'") }
                value = sum
                index += 1
            }
            if index < scalars.count, scalars[index] == ".", index + 1 < scalars.count, scalars[index + 1] != "." {
                throw GeneratorError(description: "decimal constants are not supported in rule '\(text)'")
            }
            tokens.append(.number(value))
        } else if isLetter(scalar) {
            var word = ""
            while index < scalars.count, isLetter(scalars[index]) {
                word.unicodeScalars.append(scalars[index])
                index += 1
            }
            tokens.append(.word(word))
        } else if scalar == "%" {
            tokens.append(.percent)
            index += 1
        } else if scalar == "=" {
            tokens.append(.equals)
            index += 1
        } else if scalar == "!", index + 1 < scalars.count, scalars[index + 1] == "=" {
            tokens.append(.notEquals)
            index += 2
        } else if scalar == ".", index + 1 < scalars.count, scalars[index + 1] == "." {
            tokens.append(.dotDot)
            index += 2
        } else if scalar == "," {
            tokens.append(.comma)
            index += 1
        } else {
            throw GeneratorError(description: "unexpected character '\(scalar)' in rule '\(text)'")
        }
    }
    return tokens
}

struct RuleParser {
    var tokens: [Token]
    var index = 0
    let text: String

    init(_ text: String) throws {
        self.text = text
        tokens = try tokenize(text)
    }

    func fail(_ message: String) -> GeneratorError {
        GeneratorError(description: "\(message) in rule '\(text)'")
    }

    var peek: Token? { index < tokens.count ? tokens[index] : nil }

    mutating func next() -> Token? {
        defer { index += 1 }
        return peek
    }

    mutating func parseCondition() throws -> Condition {
        var alternatives: Condition = [try parseConjunction()]
        while peek == .word("or") {
            index += 1
            alternatives.append(try parseConjunction())
        }
        if let token = peek { throw fail("unexpected \(token)") }
        return alternatives
    }

    mutating func parseConjunction() throws -> [Relation] {
        var relations = [try parseRelation()]
        while peek == .word("and") {
            index += 1
            relations.append(try parseRelation())
        }
        return relations
    }

    mutating func parseRelation() throws -> Relation {
        guard case .word(let operand)? = next(), operands.contains(operand) else {
            throw fail("expected an operand (n i v w f t c e)")
        }
        var modulus: Int?
        if peek == .percent || peek == .word("mod") {
            index += 1
            guard case .number(let value)? = next(), value > 0 else { throw fail("expected a modulus") }
            if digitOperands.contains(operand) {
                var power = 10
                var valid = false
                for _ in 1...18 {
                    if power == value { valid = true }
                    if power < 1_000_000_000_000_000_000 { power *= 10 }
                }
                guard valid else { throw fail("modulus \(value) is not a power of ten up to 10^18") }
            }
            modulus = value
        }
        let negated: Bool
        switch next() {
        case .equals?: negated = false
        case .notEquals?: negated = true
        default: throw fail("expected '=' or '!=' (old 'is'/'in'/'within' syntax is not supported)")
        }
        var items: [ClosedRange<Int>] = []
        repeat {
            if !items.isEmpty { index += 1 }
            guard case .number(let low)? = next() else { throw fail("expected a number") }
            var high = low
            if peek == .dotDot {
                index += 1
                guard case .number(let value)? = next(), value >= low else { throw fail("bad range") }
                high = value
            }
            items.append(low...high)
        } while peek == .comma
        return Relation(operand: operand, modulus: modulus, negated: negated, items: items)
    }
}

// MARK: - Code generation

extension Relation {
    var localName: String { operand + (modulus.map(String.init) ?? "") }

    var localDeclaration: String {
        if let modulus { return "let \(localName) = o.operand(.\(operand), mod: \(modulus))" }
        return "let \(localName) = o.operand(.\(operand))"
    }

    /// Canonical CLDR text, e.g. `n % 100 != 12..14`.
    var ruleText: String {
        let expr = operand + (modulus.map { " % \($0)" } ?? "")
        let list = items.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)..\($0.upperBound)" }
        return "\(expr) \(negated ? "!=" : "=") \(list.joined(separator: ","))"
    }

    var swiftCode: String {
        let name = localName
        let tests = items.map { range in
            range.lowerBound == range.upperBound
                ? "\(name) == \(range.lowerBound)" : "(\(range.lowerBound)...\(range.upperBound)).contains(\(name))"
        }
        if tests.count == 1 {
            let range = items[0]
            if !negated { return tests[0] }
            return range.lowerBound == range.upperBound
                ? "\(name) != \(range.lowerBound)" : "!(\(range.lowerBound)...\(range.upperBound)).contains(\(name))"
        }
        let joined = tests.joined(separator: " || ")
        return negated ? "!(\(joined))" : "(\(joined))"
    }
}

func ruleText(_ condition: Condition) -> String {
    condition.map { $0.map(\.ruleText).joined(separator: " and ") }.joined(separator: " or ")
}

func swiftCode(_ condition: Condition) -> String {
    let conjunctions = condition.map { relations in relations.map(\.swiftCode).joined(separator: " && ") }
    if conjunctions.count == 1 { return conjunctions[0] }
    return zip(condition, conjunctions)
        .map { relations, code in relations.count > 1 ? "(\(code))" : code }
        .joined(separator: " || ")
}

let categoryOrder = ["zero", "one", "two", "few", "many", "other"]

/// The compiled rules of one locale; locales with equal `body` share one rule set.
struct RuleSet {
    var categories: [String]
    var body: String
}

func compile(locale: String, rules: [String: String]) throws -> RuleSet {
    var conditions: [(category: String, condition: Condition)] = []
    var categories: [String] = []
    for (key, value) in rules {
        let prefix = "pluralRule-count-"
        guard key.hasPrefix(prefix), categoryOrder.contains(String(key.dropFirst(prefix.count))) else {
            throw GeneratorError(description: "\(locale): unexpected key '\(key)'")
        }
        let category = String(key.dropFirst(prefix.count))
        categories.append(category)
        let ruleText = (value.components(separatedBy: "@").first ?? "").trimmingCharacters(in: .whitespaces)
        if category == "other" {
            guard ruleText.isEmpty else { throw GeneratorError(description: "\(locale): 'other' has a condition") }
            continue
        }
        guard !ruleText.isEmpty else { throw GeneratorError(description: "\(locale): '\(category)' has no condition") }
        var parser = try RuleParser(ruleText)
        conditions.append((category, try parser.parseCondition()))
    }
    if !categories.contains("other") { categories.append("other") }
    categories.sort { categoryOrder.firstIndex(of: $0) ?? 0 < categoryOrder.firstIndex(of: $1) ?? 0 }
    conditions.sort { categoryOrder.firstIndex(of: $0.category) ?? 0 < categoryOrder.firstIndex(of: $1.category) ?? 0 }

    var locals: [String] = []
    for (_, condition) in conditions {
        for relation in condition.joined() where !locals.contains(relation.localDeclaration) {
            locals.append(relation.localDeclaration)
        }
    }
    var lines: [String] = []
    if conditions.isEmpty {
        lines.append("{ _ in .other }")
    } else {
        lines.append("{ o in")
        for local in locals { lines.append("    \(local)") }
        for (category, condition) in conditions {
            lines.append("    // \(category): \(ruleText(condition))")
            lines.append("    if \(swiftCode(condition)) { return .\(category) }")
        }
        lines.append("    return .other")
        lines.append("}")
    }
    return RuleSet(categories: categories, body: lines.joined(separator: "\n"))
}

func generate(json: Data) throws -> String {
    guard
        let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
        let supplemental = root["supplemental"] as? [String: Any],
        let cardinal = supplemental["plurals-type-cardinal"] as? [String: Any]
    else {
        throw GeneratorError(description: "not a CLDR plurals.json (no supplemental.plurals-type-cardinal)")
    }
    var sets: [(name: String, locales: [String], ruleSet: RuleSet)] = []
    var table: [(locale: String, setName: String)] = []
    for key in cardinal.keys.sorted() {
        guard let rules = cardinal[key] as? [String: String] else {
            throw GeneratorError(description: "\(key): rules are not an object of strings")
        }
        let locale = key.replacingOccurrences(of: "_", with: "-")
        let ruleSet = try compile(locale: locale, rules: rules)
        let setIndex: Int
        if let existing = sets.firstIndex(where: { $0.ruleSet.body == ruleSet.body && $0.ruleSet.categories == ruleSet.categories }) {
            setIndex = existing
            sets[existing].locales.append(locale)
        } else {
            setIndex = sets.count
            sets.append((locale.replacingOccurrences(of: "-", with: "_") + "Rules", [locale], ruleSet))
        }
        table.append((locale, sets[setIndex].name))
    }
    table.sort { $0.locale < $1.locale }

    var out = """
        // generated by tipcat-gen-plurals from CLDR plurals.json — do not edit.
        // Regenerate: swift run tipcat-gen-plurals Tests/Fixtures/cldr/plurals.json > Sources/TipcatLocalization/PluralRules+CLDR.swift
        // CLDR data: Copyright © 1991-2025 Unicode, Inc.; Unicode License v3 (Unicode-3.0), https://www.unicode.org/license.txt
        //
        // \(table.count) locales, \(sets.count) distinct rule sets. Rule operands come from `PluralOperands.operand(_:mod:)`,
        // which returns -1 (equal to no CLDR constant) when an operand has no integer value.

        extension PluralRules {
            /// The CLDR cardinal rule set of each CLDR locale key (BCP 47 form).
            static let cldrRuleSets: [String: CLDRRuleSet] = [

        """
    for entry in table {
        out += "        \"\(entry.locale)\": .\(entry.setName),\n"
    }
    out += "    ]\n}\n\nextension PluralRules.CLDRRuleSet {\n"
    for (position, set) in sets.enumerated() {
        if position > 0 { out += "\n" }
        out += "    /// \(set.locales.joined(separator: ", "))\n"
        let categories = set.ruleSet.categories.map { "." + $0 }.joined(separator: ", ")
        let bodyLines = set.ruleSet.body.split(separator: "\n", omittingEmptySubsequences: false)
        out += "    static let \(set.name) = Self(categories: [\(categories)]) \(bodyLines[0])\n"
        for line in bodyLines.dropFirst() {
            out += "    \(line)\n"
        }
    }
    out += "}\n"
    return out
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: tipcat-gen-plurals PATH/plurals.json\n".utf8))
    exit(2)
}
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let source = try generate(json: data)
    FileHandle.standardOutput.write(Data(source.utf8))
} catch {
    FileHandle.standardError.write(Data("tipcat-gen-plurals: \(error)\n".utf8))
    exit(1)
}
