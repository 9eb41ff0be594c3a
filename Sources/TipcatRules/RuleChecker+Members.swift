import TipcatCore

extension RuleCheckerState {
    static let donationMembers = ["count", "within", "where", "largestSubset", "smallestSubset", "distinct", "lastDonated"]
    static let collectionMembers = ["count", "isEmpty", "contains"]
    static let tipMembers = ["invalidated", "available", "pending", "displayCount"]
    static let dateMembers = ["isToday", "hour", "minute", "weekday"]
    static let reasonNames = RuleInvalidationReason.allCases.map { ".\($0.rawValue)" }.joined(separator: ", ")

    /// Checks `base.member(…)` given the already checked `base`.
    mutating func checkMember(
        _ base: RuleExpression, _ member: RuleMember, _ info: RuleNodeInfo, in scope: Scope
    ) -> RuleExpression {
        var member = member
        member.kind = nil
        func result(_ kind: RuleMemberKind?, _ type: RuleType?, arguments: [RuleArgument]? = member.arguments) -> RuleExpression {
            var resolved = member
            resolved.kind = type == nil ? nil : kind
            resolved.arguments = arguments
            return .member(base, resolved, RuleNodeInfo(info.range, type: type))
        }
        guard let baseType = base.type else { return result(nil, nil) }
        let range = member.nameRange.lowerBound..<info.range.upperBound
        switch baseType {
        case .donations(let event):
            return checkDonationMember(event, member, range, result)
        case .list(let element), .set(let element):
            return checkCollectionMember(RuleType(element), baseType, member, range, in: scope, result)
        case .string:
            return checkCollectionMember(.string, .string, member, range, in: scope, result)
        case .record(let fields):
            guard let field = fields.first(where: { $0.name == member.name }) else {
                let suggestion = RuleSuggestions.didYouMean(member.name, in: fields.map(\.name))
                report(.unknownMember, "unknown member '\(member.name)' of \(name(of: base))\(suggestion)", member.nameRange)
                return result(nil, nil)
            }
            guard noArguments(member, range) else { return result(nil, nil) }
            return result(.field, RuleType(field.type))
        case .date:
            let kinds: [String: (RuleMemberKind, RuleType)] = [
                "isToday": (.isToday, .bool), "hour": (.hour, .int), "minute": (.minute, .int), "weekday": (.weekday, .int),
            ]
            guard let (kind, type) = kinds[member.name] else {
                unknownMember(member, of: "date", RuleCheckerState.dateMembers)
                return result(nil, nil)
            }
            guard noArguments(member, range) else { return result(nil, nil) }
            return result(kind, type)
        case .tip:
            let kinds: [String: (RuleMemberKind, RuleType)] = [
                "invalidated": (.invalidated, .bool), "available": (.available, .bool),
                "pending": (.pending, .bool), "displayCount": (.displayCount, .int),
            ]
            guard let (kind, type) = kinds[member.name] else {
                unknownMember(member, of: "tip", RuleCheckerState.tipMembers)
                return result(nil, nil)
            }
            if kind == .invalidated, member.arguments != nil {
                // `invalidated(.tipClosed)`: invalidated for that reason.
                guard let argument = oneArgument(member, range, example: ".invalidated(.actionPerformed)") else { return result(nil, nil) }
                guard case .symbol(let name, let info) = argument.value, RuleInvalidationReason(rawValue: name) != nil else {
                    var written = ""
                    if case .symbol(let name, _) = argument.value { written = ".\(name)" }
                    if case .window(let window, _) = argument.value { written = ".\(window.rawValue)" }
                    let names = RuleInvalidationReason.allCases.map { ".\($0.rawValue)" }
                    let suggestion = written.isEmpty ? "" : RuleSuggestions.didYouMean(written, in: names)
                    report(.typeMismatch, "'invalidated' takes an invalidation reason (\(RuleCheckerState.reasonNames))"
                           + (written.isEmpty ? "" : ", not '\(written)'") + suggestion, argument.value.range)
                    return result(nil, nil)
                }
                return result(kind, type, arguments: [RuleArgument(value: .symbol(name, RuleNodeInfo(info.range, type: .invalidationReason)))])
            }
            guard noArguments(member, range) else { return result(nil, nil) }
            return result(kind, type)
        case .optional:
            report(.typeMismatch, "\(name(of: base)) is \(baseType) and may be nil, so it has no members here; "
                   + "compare it with nil or with a value instead", member.nameRange)
            return result(nil, nil)
        default:
            report(.unknownMember, "unknown member '\(member.name)' of \(baseType): \(baseType.withArticle) has no members",
                  member.nameRange)
            return result(nil, nil)
        }
    }

    mutating func unknownMember(_ member: RuleMember, of what: String, _ candidates: [String], hint: String = "") {
        let suggestion = RuleSuggestions.didYouMean(member.name, in: candidates)
        report(.unknownMember, "unknown member '\(member.name)' of \(what)\(suggestion.isEmpty ? hint : suggestion)",
              member.nameRange)
    }

    /// Reports arguments given to a property such as `count`.
    mutating func noArguments(_ member: RuleMember, _ range: Range<Int>) -> Bool {
        guard member.arguments != nil else { return true }
        report(.typeMismatch, "'\(member.name)' takes no arguments; write '.\(member.name)'", range)
        return false
    }

    /// The single argument of a method such as `within`, or nil after reporting what is wrong.
    mutating func oneArgument(
        _ member: RuleMember, _ range: Range<Int>, example: @autoclosure () -> String, label allowedLabel: String? = nil
    ) -> RuleArgument? {
        guard let arguments = member.arguments else {
            report(.typeMismatch, "'\(member.name)' needs an argument, as in '\(example())'", range)
            return nil
        }
        guard arguments.count == 1, let argument = arguments.first else {
            report(.typeMismatch, "'\(member.name)' takes one argument, as in '\(example())', but has \(arguments.count)", range)
            return nil
        }
        if let label = argument.label, label != allowedLabel {
            let suggestion = allowedLabel.map { RuleSuggestions.didYouMean(label + ":", in: [$0 + ":"]) } ?? ""
            let message = allowedLabel == nil
                ? "'\(member.name)' takes no argument label; remove '\(label):'"
                : "unknown argument label '\(label):' of '\(member.name)'\(suggestion)"
            report(.unknownMember, message, argument.labelRange ?? range)
            return nil
        }
        return argument
    }

    // MARK: Donations

    mutating func checkDonationMember(
        _ event: String, _ member: RuleMember, _ range: Range<Int>,
        _ result: (RuleMemberKind?, RuleType?, [RuleArgument]?) -> RuleExpression
    ) -> RuleExpression {
        let fields = environment.events[event] ?? [:]
        switch member.name {
        case "count", "lastDonated":
            guard noArguments(member, range) else { return result(nil, nil, member.arguments) }
            return member.name == "count" ? result(.count, .int, nil) : result(.lastDonated, .date, nil)
        case "within":
            guard let argument = oneArgument(member, range, example: ".within(5d)") else { return result(nil, nil, member.arguments) }
            let value = checkWindow(argument.value)
            return result(.within, value.type == nil ? nil : .donations(event: event), [RuleArgument(value: value)])
        case "where":
            guard let argument = oneArgument(member, range, example: ".where(isFavorite == true)") else {
                return result(nil, nil, member.arguments)
            }
            let value = check(argument.value, in: Scope(event: event))
            requireCondition(value, "'where' needs a condition (bool)")
            let ok = value.type == .bool
            return result(.where, ok ? .donations(event: event) : nil, [RuleArgument(value: value)])
        case "largestSubset", "smallestSubset", "distinct":
            let kind: RuleMemberKind = member.name == "distinct" ? .distinct
                : (member.name == "largestSubset" ? .largestSubset : .smallestSubset)
            // Only messages use the example: built when one is written.
            func example() -> String { fields.keys.sorted().first ?? "field" }
            guard let argument = oneArgument(
                member, range, example: ".\(member.name)(\(example()))", label: kind == .distinct ? nil : "groupedBy")
            else { return result(nil, nil, member.arguments) }
            guard let field = fieldArgument(argument.value, of: event, member: member.name, example: example()) else {
                return result(nil, nil, member.arguments)
            }
            let checked = RuleArgument(label: argument.label, labelRange: argument.labelRange, value: field)
            guard let fieldType = field.type?.valueType else { return result(nil, nil, [checked]) }
            return result(kind, kind == .distinct ? .set(fieldType) : .donations(event: event), [checked])
        default:
            let hint = fields[member.name] != nil
                ? "; '\(member.name)' is a field of #\(event): use it inside .where(…), as in .where(\(member.name) == …)"
                : ""
            unknownMember(member, of: "events", RuleCheckerState.donationMembers, hint: hint)
            return result(nil, nil, member.arguments)
        }
    }

    /// The argument of `within`: a calendar window or a duration.
    mutating func checkWindow(_ argument: RuleExpression) -> RuleExpression {
        if case .window = argument { return argument.with(type: .window) }
        if case .symbol(let name, let info) = argument {
            let names = RuleWindow.allCases.map { ".\($0.rawValue)" }
            let suggestion = RuleSuggestions.didYouMean(".\(name)", in: names)
            report(.typeMismatch, "unknown calendar window '.\(name)'\(suggestion) (use .minute, .hour, .day or .week)", info.range)
            return argument.with(type: nil)
        }
        let value = check(argument, in: Scope())
        guard let type = value.type, type != .duration else { return value }
        var message = "'within' needs a duration such as 5d or a window such as .day, but this is \(type.withArticle)"
        if case .int(let number, _) = value, number > 0 { message += "; did you mean '\(number)d'?" }
        report(.typeMismatch, message, value.range)
        return value.with(type: nil)
    }

    /// The field-name argument of `largestSubset`, `smallestSubset` and `distinct`, resolved to `.eventField`.
    mutating func fieldArgument(
        _ argument: RuleExpression, of event: String, member: String, example: @autoclosure () -> String
    ) -> RuleExpression? {
        guard case .name(let name, let info) = argument else {
            report(.typeMismatch, "'\(member)' needs a field name of #\(event), as in '.\(member)(\(example()))'", argument.range)
            return nil
        }
        let fields = environment.events[event] ?? [:]
        guard let type = fields[name] else {
            if fields.isEmpty {
                report(.unknownField, "unknown field '\(name)': #\(event) declares no fields", info.range)
            } else {
                let suggestion = RuleSuggestions.didYouMean(name, in: fields.keys)
                report(.unknownField, "unknown field '\(name)' of #\(event)\(suggestion)", info.range)
            }
            return nil
        }
        return .eventField(name, event: event, RuleNodeInfo(info.range, type: RuleType(type)))
    }

    // MARK: Collections and strings

    mutating func checkCollectionMember(
        _ element: RuleType, _ baseType: RuleType, _ member: RuleMember, _ range: Range<Int>, in scope: Scope,
        _ result: (RuleMemberKind?, RuleType?, [RuleArgument]?) -> RuleExpression
    ) -> RuleExpression {
        switch member.name {
        case "count", "isEmpty":
            guard noArguments(member, range) else { return result(nil, nil, member.arguments) }
            return member.name == "count" ? result(.count, .int, nil) : result(.isEmpty, .bool, nil)
        case "contains":
            let example = element == .string ? ".contains(\"Rose\")" : ".contains(3)"
            guard let argument = oneArgument(member, range, example: example) else { return result(nil, nil, member.arguments) }
            let value = check(argument.value, in: scope)
            guard let type = value.type else { return result(nil, nil, [RuleArgument(value: value)]) }
            let fits = type == element || (type.isNumeric && element.isNumeric)
            guard fits, RuleCheckerState.comparable(element, type, .equal) else {
                let what = baseType == .string ? "a string contains a string" : "this \(baseType) contains \(element.withArticle)"
                report(.typeMismatch, "'contains' checks whether \(what), but \(name(of: value)) is \(type.withArticle)",
                      value.range)
                return result(nil, nil, [RuleArgument(value: value)])
            }
            return result(.contains, .bool, [RuleArgument(value: value)])
        default:
            unknownMember(member, of: baseType.description, RuleCheckerState.collectionMembers)
            return result(nil, nil, member.arguments)
        }
    }
}
