import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatText

/// Checks messages (titles, messages, action titles, custom IDs) against a tip's parameters and CLDR.
struct MessageChecker: Sendable {
    let sourceLanguage: LocaleID

    /// Parses the message in a JSON string node and reports syntax errors at the exact character; a displayed
    /// text (`isDisplayed`, not a custom ID) is also checked as inline Markdown.
    func parse(
        _ text: String, node: JSONNode, in document: JSONDocument, what: String, sink: DiagnosticSink, pluralForm: Bool = false,
        isDisplayed: Bool = true
    ) -> Message? {
        let message: Message
        do {
            message = try pluralForm ? Message.parsePluralForm(text) : Message.parse(text)
        } catch {
            sink.add(.messageSyntax(error.message, in: what, at: document.location(inString: node, atUTF8Offset: error.offset)))
            return nil
        }
        if isDisplayed { checkMarkup(text, node: node, in: document, what: what, sink: sink) }
        return message
    }

    /// Reports inline Markdown that is probably a mistake, and links that may not be followed, at their character.
    func checkMarkup(_ text: String, node: JSONNode, in document: JSONDocument, what: String, sink: DiagnosticSink) {
        guard InlineMarkup.mayHaveProblems(text) else { return }
        for problem in InlineMarkup.parse(text).problems {
            let location = document.location(inString: node, atUTF8Offset: problem.offset)
            switch problem.kind {
            case .malformed: sink.add(.malformedMarkup(problem.message, in: what, at: location))
            case .unsafeLink: sink.add(.unsafeLink(problem.message, in: what, at: location))
            }
        }
    }

    /// Every placeholder must name a tip parameter (or a field path into a record parameter) of a suitable type,
    /// and one that may be absent (an optional parameter or field) needs a text for nil unless `absentIsEmpty`
    /// (custom IDs, where an absent value is empty text).
    func checkPlaceholders(
        _ message: Message, node: JSONNode, in document: JSONDocument, tip: TipParameterScope, what: String,
        sink: DiagnosticSink, absentIsEmpty: Bool = false
    ) {
        // One scan of the string, made when the first finding needs a location.
        var locator: JSONStringLocator?
        func locate(_ offset: Int) -> SourceLocation {
            let made = locator ?? JSONStringLocator(node, in: document)
            locator = made
            return made.location(atUTF8Offset: offset)
        }
        for placeholder in message.placeholders {
            var location: SourceLocation { locate(placeholder.offset) }
            guard let declared = tip.type(atPath: placeholder.path) else {
                let hint = tip.paths.isEmpty
                    ? "; the tip declares no parameters (add them under \"parameters\")"
                    : Suggestions.didYouMean(placeholder.path, in: tip.paths)
                sink.add(.undeclaredPlaceholder(placeholder.path, in: what, tip: tip.name, hint: hint, at: location))
                continue
            }
            let type = declared.wrapped
            let onlyPresence = Set(placeholder.selectors).isSubset(of: [Message.absentSelector, "other"])
            switch placeholder.kind {
            case .plural where !type.isNumeric:
                sink.report("'\(placeholder.path)' is \(declared); a plural needs an int or double parameter",
                            rule: .typeMismatch, at: location)
            case .number where !type.isNumeric:
                sink.report("'\(placeholder.path)' is \(declared); a number format needs an int or double parameter",
                            rule: .typeMismatch, at: location)
            case .select where type != .string && type != .bool && type != .int
                    && !(placeholder.selectors.contains(Message.absentSelector) && onlyPresence):
                sink.report("'\(placeholder.path)' is \(declared); select works on string, bool or int parameters"
                            + (declared.isOptional ? ", or with only 'nil' and 'other' cases on any optional one" : ""),
                            rule: .typeMismatch, at: location)
            case .value:
                if case .record(let fields) = type {
                    sink.report(
                        "'{\(placeholder.path)}' is a record; name one of its fields: "
                            + fields.map { "{\(placeholder.path).\($0.name)}" }.joined(separator: ", "),
                        rule: .typeMismatch, at: location)
                }
            default:
                break
            }
        }
        // Without an optional parameter or field, every placeholder that names one has a value.
        guard !absentIsEmpty, tip.hasOptionals else { return }
        let mayBeAbsent: (String) -> Bool = { tip.type(atPath: $0)?.isOptional ?? false }
        for placeholder in message.placeholdersWithoutAbsentCase(mayBeAbsent: mayBeAbsent) {
            let absent = Message.prefixesOfPath(placeholder.path).first(where: mayBeAbsent) ?? placeholder.path
            sink.add(.optionalPlaceholder(placeholder.path, in: what, absent: absent, type: tip.type(atPath: absent),
                                          at: locate(placeholder.offset)))
        }
    }

    /// Every plural in `message` needs `other` (an error without it); a category `locale` has that the plural
    /// lacks falls back to `other` (a warning).
    func checkPluralCoverage(
        _ message: Message, locale: LocaleID, node: JSONNode, in document: JSONDocument, what: String, sink: DiagnosticSink
    ) {
        let plurals = message.pluralArguments
        guard !plurals.isEmpty else { return }
        let other = PluralCategory.other.rawValue
        let needed = PluralRules.categories(for: locale).map(\.rawValue).filter { $0 != other }
        var locator: JSONStringLocator?
        func locate(_ offset: Int) -> SourceLocation {
            let made = locator ?? JSONStringLocator(node, in: document)
            locator = made
            return made.location(atUTF8Offset: offset)
        }
        for plural in plurals {
            var location: SourceLocation { locate(plural.offset) }
            if !plural.selectors.contains(other) {
                sink.add(.missingPluralCategory(plural.path, in: what, missing: [other], locale: locale, at: location))
            }
            let missing = needed.filter { !plural.selectors.contains($0) }
            if !missing.isEmpty {
                sink.add(.pluralCategoryFallback(plural.path, in: what, missing: missing, locale: locale, at: location))
            }
        }
    }

    /// `'one'`, `'one' and 'few'`, `'one', 'few' and 'many'`.
    static func list(_ items: [String]) -> String {
        let quoted = items.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
    }
}

/// The names a tip's messages may use: its parameters and their record fields.
struct TipParameterScope {
    let name: String
    let parameters: [ValueType.RecordField]
    /// Whether some parameter, or a field of a record parameter at any depth, is optional: only then can a
    /// placeholder have no value.
    let hasOptionals: Bool

    init(name: String, parameters: [ValueType.RecordField]) {
        self.name = name
        self.parameters = parameters
        func hasOptional(_ type: ValueType) -> Bool {
            if type.isOptional { return true }
            if case .record(let fields) = type.wrapped { return fields.contains { hasOptional($0.type) } }
            return false
        }
        hasOptionals = parameters.contains { hasOptional($0.type) }
    }

    func type(atPath path: String) -> ValueType? {
        parameters.type(atPath: path)
    }

    /// Every valid path (`trail`, `trail.id`, …), for did-you-mean.
    var paths: [String] {
        var result: [String] = []
        func walk(_ prefix: String, _ type: ValueType) {
            result.append(prefix)
            if case .record(let fields) = type.wrapped {
                for field in fields { walk(prefix + "." + field.name, field.type) }
            }
        }
        for parameter in parameters { walk(parameter.name, parameter.type) }
        return result
    }
}
