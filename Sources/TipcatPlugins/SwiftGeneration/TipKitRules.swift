import TipcatCore
import TipcatRules

/// Rule language → TipKit `#Rule`s, where TipKit can say the same thing.
///
/// A `#Rule` reads one `@Parameter` or one `Tips.Event`, so a rule translates when everything it reads is that one
/// parameter or event (with literals): `$isLoggedIn` → `#Rule(P.$isLoggedIn) { $0 == true }`,
/// `#e.within(5d).largestSubset(f).count >= 3` → `#Rule(E.e) { $0.donations.donatedWithin(.days(5)).largestSubset(\.f).count >= 3 }`.
/// A rule that is an `&&` at the top becomes one `#Rule` per operand (TipKit ANDs its rules). Anything else —
/// an `||` or `&&` across different parameters or events, `tip(…)`, `now` and dates, the tip's own
/// parameters, `distinct`, `smallestSubset`, `lastDonated` — is reported with the reason instead.
struct TipKitRuleTranslator {
    /// `TipCatalog.Parameters.$name` for a declared parameter.
    var parameterReference: (String) -> String?
    /// `TipCatalog.Events.name` for a declared event.
    var eventReference: (String) -> String?
    /// The Swift name of an event's field.
    var fieldName: (String) -> String
    /// The field names of an event.
    var eventFields: (String) -> [String]

    struct Untranslatable: Error {
        var reason: String
    }

    /// The `#Rule`s for one rule text, and the parts that have no TipKit form (their text and why).
    func translate(_ source: String) -> (rules: [String], untranslated: [(text: String, reason: String)]) {
        guard let expression = RuleParser.parse(source).expression else {
            return ([], [(source, "it does not parse")])
        }
        let bytes = Array(source.utf8)
        func text(_ node: RuleExpression) -> String {
            let range = node.info.range
            guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.lowerBound <= range.upperBound else { return source }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        let parts: [RuleExpression]
        if case .and(let operands, _) = expression { parts = operands } else { parts = [expression] }
        var rules: [String] = []
        var untranslated: [(String, String)] = []
        for part in parts {
            do throws(Untranslatable) {
                rules.append(try rule(part))
            } catch {
                untranslated.append((parts.count == 1 ? source : text(part), error.reason))
            }
        }
        return (rules, untranslated)
    }

    enum Subject: Equatable {
        case parameter(String)
        case event(String)
    }

    func rule(_ expression: RuleExpression) throws(Untranslatable) -> String {
        var subject: Subject?
        let body = try condition(expression, &subject, donation: false)
        switch subject {
        case .parameter(let name)?:
            guard let reference = parameterReference(name) else { throw Untranslatable(reason: "$\(name) is not declared") }
            return "#Rule(\(reference)) { \(body) }"
        case .event(let id)?:
            guard let reference = eventReference(id) else { throw Untranslatable(reason: "#\(id) is not declared") }
            return "#Rule(\(reference)) { \(body) }"
        case nil:
            throw Untranslatable(reason: "it reads no parameter or event")
        }
    }

    func claim(_ new: Subject, _ subject: inout Subject?) throws(Untranslatable) {
        if let subject, subject != new {
            throw Untranslatable(reason: "it combines several parameters or events, and a TipKit #Rule reads one")
        }
        subject = new
    }

    /// A Boolean expression: a bare Boolean parameter reads `$0 == true`.
    func condition(_ expression: RuleExpression, _ subject: inout Subject?, donation: Bool) throws(Untranslatable) -> String {
        switch expression {
        case .appParameter(let name, _) where !donation:
            try claim(.parameter(name), &subject)
            return "$0 == true"
        case .not(let inner, _):
            if case .appParameter(let name, _) = inner, !donation {
                try claim(.parameter(name), &subject)
                return "$0 == false"
            }
            return "!(" + (try condition(inner, &subject, donation: donation)) + ")"
        case .and(let operands, _):
            var texts: [String] = []
            for operand in operands { texts.append("(" + (try condition(operand, &subject, donation: donation)) + ")") }
            return texts.joined(separator: " && ")
        case .or(let operands, _):
            var texts: [String] = []
            for operand in operands { texts.append("(" + (try condition(operand, &subject, donation: donation)) + ")") }
            return texts.joined(separator: " || ")
        case .comparison(let operation, let lhs, let rhs, _):
            let left = try value(lhs, &subject, donation: donation)
            let right = try value(rhs, &subject, donation: donation)
            return "\(left) \(operation.rawValue) \(right)"
        default:
            return try value(expression, &subject, donation: donation)
        }
    }

    /// A value: literals, the parameter or the event's donations, and the members TipKit has.
    func value(_ expression: RuleExpression, _ subject: inout Subject?, donation: Bool) throws(Untranslatable) -> String {
        switch expression {
        case .bool(let value, _): return value ? "true" : "false"
        case .int(let value, _): return String(value)
        case .double(let value, _): return value.isFinite ? String(value) : "0"
        case .string(let value, _): return SwiftSource.string(value)
        case .nil: return "nil"
        case .appParameter(let name, _):
            guard !donation else { throw Untranslatable(reason: "a where clause that reads $\(name)") }
            try claim(.parameter(name), &subject)
            return "$0"
        case .event(let id, _):
            guard !donation else { throw Untranslatable(reason: "a where clause that reads #\(id)") }
            try claim(.event(id), &subject)
            return "$0.donations"
        case .name(let name, _), .eventField(let name, _, _), .tipParameter(let name, _):
            guard donation, case .event(let id)? = subject, eventFields(id).contains(name) else {
                throw Untranslatable(reason: "it reads the tip's own parameter '\(name)', which a TipKit #Rule cannot see")
            }
            return "$0." + fieldName(name)
        case .tip:
            throw Untranslatable(reason: "TipKit rules cannot read another tip's status (tip(…))")
        case .now, .arithmetic, .duration, .window, .symbol:
            throw Untranslatable(reason: "TipKit rules cannot compare with now or dates")
        case .not, .and, .or, .comparison:
            return try condition(expression, &subject, donation: donation)
        case .member(let base, let member, _):
            let arguments = member.arguments ?? []
            switch (member.name, arguments.count) {
            case ("count", 0), ("isEmpty", 0):
                return try value(base, &subject, donation: donation) + "." + member.name
            case ("contains", 1):
                let receiver = try value(base, &subject, donation: donation)
                return receiver + ".contains(" + (try value(arguments[0].value, &subject, donation: donation)) + ")"
            case ("within", 1):
                let receiver = try donations(base, &subject, donation: donation)
                return receiver + ".donatedWithin(" + (try window(arguments[0].value)) + ")"
            case ("where", 1):
                let receiver = try donations(base, &subject, donation: donation)
                var inner = subject
                return receiver + ".filter { " + (try condition(arguments[0].value, &inner, donation: true)) + " }"
            case ("largestSubset", 1):
                let receiver = try donations(base, &subject, donation: donation)
                switch arguments[0].value {
                case .name(let field, _) where subject.map({ if case .event(let id) = $0 { eventFields(id).contains(field) } else { false } }) ?? false,
                     .eventField(let field, _, _):
                    return receiver + ".largestSubset(\\." + fieldName(field) + ")"
                default:
                    throw Untranslatable(reason: "largestSubset takes a field name")
                }
            default:
                // What the receiver is decides first: `tip(X).invalidated` fails for `tip(X)`.
                _ = try value(base, &subject, donation: donation)
                throw Untranslatable(reason: "TipKit rules have no .\(member.name)")
            }
        }
    }

    /// A receiver that must be an event's donations.
    func donations(_ expression: RuleExpression, _ subject: inout Subject?, donation: Bool) throws(Untranslatable) -> String {
        let text = try value(expression, &subject, donation: donation)
        guard text.hasPrefix("$0.donations") else { throw Untranslatable(reason: "within, where and largestSubset apply to an event's donations") }
        return text
    }

    /// `.day`, `.days(5)`: TipKit's donation time ranges.
    func window(_ expression: RuleExpression) throws(Untranslatable) -> String {
        switch expression {
        case .window(let window, _):
            return "." + window.rawValue
        case .duration(let span, _):
            let seconds = span.seconds
            for (unit, length) in [("weeks", 604_800.0), ("days", 86_400.0), ("hours", 3_600.0), ("minutes", 60.0)] {
                let count = seconds / length
                if count >= 1, count == count.rounded(), count < 1e9 { return ".\(unit)(\(Int(count)))" }
            }
            throw Untranslatable(reason: "TipKit donation windows are whole minutes, hours, days or weeks")
        default:
            throw Untranslatable(reason: "within takes a duration or a window")
        }
    }
}
