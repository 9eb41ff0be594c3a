@_spi(Tipcat) public import TipcatCore
public import TipcatJSON
public import TipcatLocalization
public import TipcatText

/// A tip made concrete for one locale and one set of parameter values: the texts a style renders.
public struct ResolvedTip: Sendable, Hashable {
    public var tipID: TipID
    /// The resolved custom ID (`NewTrailTip-butler-fork`), or the tip's id.
    public var instanceID: String
    /// The locale that was asked for.
    public var locale: LocaleID
    public var title: ResolvedText
    public var message: ResolvedText?
    public var image: String?
    public var actions: [ResolvedAction]
    /// The parameter values used, by name.
    public var parameters: [String: Value]
}

/// One formatted text and the locale it came from (the requested one, a fallback, or the source language).
///
/// Texts are inline Markdown (as TipKit's `Text` reads them): `markup` is the formatted text with every
/// substituted value escaped, `inline` its parse, and `text` what a reader sees (markup dropped).
public struct ResolvedText: Sendable, Hashable {
    /// The String Catalog key (`NewTrailTip.title`).
    public var key: String
    /// The formatted text as inline Markdown; values substituted into it are escaped, so they stay literal.
    public var markup: String
    /// `markup` parsed.
    public var inline: InlineMarkup
    /// The visible text: `markup` without its markup.
    public var text: String
    public var locale: LocaleID

    public init(key: String, markup: String, locale: LocaleID) {
        self.key = key
        self.markup = markup
        self.locale = locale
        self.inline = InlineMarkup.parse(markup)
        if case .text(let plain)? = inline.nodes.first, inline.nodes.count == 1 {
            self.text = plain
        } else {
            self.text = inline.visibleText
        }
    }
}

public struct ResolvedAction: Sendable, Hashable {
    public var id: String
    public var title: ResolvedText
}

/// Why a tip could not be resolved. Each names what to fix.
public enum ResolveError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    case unknownTip(String, suggestion: String?)
    case missingParameter(tip: TipID, name: String, type: ValueType)
    case unknownParameter(tip: TipID, name: String, suggestion: String?)
    case wrongType(tip: TipID, name: String, expected: ValueType, found: Value)
    case invalidValue(tip: TipID, name: String, expected: ValueType, text: String)
    case format(key: String, message: String)

    public var description: String {
        switch self {
        case .unknownTip(let id, let suggestion):
            "unknown tip '\(id)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .missingParameter(let tip, let name, let type):
            "\(tip) needs parameter '\(name)' (\(type)); pass --param \(name)=… or --params-file"
        case .unknownParameter(let tip, let name, let suggestion):
            "\(tip) has no parameter '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .wrongType(let tip, let name, let expected, let found):
            "parameter '\(name)' of \(tip) must be \(expected), found \(found)"
        case .invalidValue(let tip, let name, let expected, let text):
            "parameter '\(name)' of \(tip) must be \(expected); '\(text)' is not"
        case .format(let key, let message):
            "cannot format '\(key)': \(message)"
        }
    }
}

/// Resolves tips of one catalog: locale fallback, parameter checking, custom IDs, plurals.
public struct TipResolver: Sendable {
    public var catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The tip with id `id`, or an error with a did-you-mean.
    public func tip(_ id: String) throws(ResolveError) -> Tip {
        guard let tip = catalog.tip(TipID(id)) else {
            throw .unknownTip(id, suggestion: Suggestions.closest(to: id, in: catalog.tips.map(\.id.rawValue)))
        }
        return tip
    }

    /// Resolves `tip` for `locale`. Missing parameters come from the tip's example when `useExample` is set; an
    /// optional parameter without a value (nor an example) is absent: texts take their `nil` case, and the custom
    /// ID has empty text in its place.
    ///
    /// `device` picks the tip's `platforms` entry for it and String Catalog device variations (see `LocalizationTable.lookup(_:for:device:)`); without
    /// it the `other` variation, else the plain string, is used.
    ///
    /// For a pseudo-locale (`en-XA`, `ar-XB`; see `PseudoLocale`) the texts are derived from the source
    /// language's messages, and their `locale` is the pseudo-locale; the custom ID is never transformed.
    public func resolve(
        _ tip: Tip, locale: LocaleID, parameters given: [String: Value], useExample: Bool = false, device: Device? = nil
    ) throws(ResolveError) -> ResolvedTip {
        var values: [String: Value] = [:]
        for (name, value) in given {
            guard let type = tip.parameter(name) else {
                throw .unknownParameter(tip: tip.id, name: name, suggestion: Suggestions.closest(to: name, in: tip.parameters.map(\.name)))
            }
            guard value.conforms(to: type) else { throw .wrongType(tip: tip.id, name: name, expected: type, found: value) }
            values[name] = value
        }
        for parameter in tip.parameters where values[parameter.name] == nil {
            if useExample, let example = tip.example?[parameter.name] {
                values[parameter.name] = example
            } else if !parameter.type.isOptional {
                throw .missingParameter(tip: tip.id, name: parameter.name, type: parameter.type)
            }
        }
        let lookup: (String) -> Value? = { path in Self.value(at: path, in: values) }
        let pseudo = PseudoLocale(locale)
        let chain = locale.fallbackChain(sourceLanguage: catalog.localizations.sourceLanguage)
        func text(_ localized: LocalizedText) throws(ResolveError) -> ResolvedText {
            let source = catalog.settings.sourceLanguage
            if let pseudo {
                // Derived from the source text: literal parts transformed, values substituted as they are.
                guard let message = localized.message else {
                    return ResolvedText(key: localized.key, markup: pseudo.finish(pseudo.localize(literal: localized.source)), locale: locale)
                }
                do {
                    let formatted = try pseudo.localize(message).format(locale: source, value: lookup, escapeValue: InlineMarkup.escape)
                    return ResolvedText(key: localized.key, markup: pseudo.finish(formatted), locale: locale)
                } catch {
                    throw .format(key: localized.key, message: error.message)
                }
            }
            var message = localized.message
            var textLocale = source
            if let found = catalog.localizations.lookup(localized.key, chain: chain, device: device) {
                message = found.translation.content.message
                textLocale = found.locale
            }
            guard let message else { return ResolvedText(key: localized.key, markup: localized.source, locale: source) }
            do {
                let formatted = try message.format(locale: textLocale, value: lookup, escapeValue: InlineMarkup.escape)
                return ResolvedText(key: localized.key, markup: formatted, locale: textLocale)
            } catch {
                throw .format(key: localized.key, message: error.message)
            }
        }
        var instanceID = tip.id.rawValue
        if let custom = tip.customID?.message {
            do {
                // Every required parameter has a value here; an absent optional one is empty text.
                instanceID = try custom.format(locale: catalog.settings.sourceLanguage, value: { lookup($0) ?? .string("") })
            } catch {
                throw .format(key: "\(tip.id).customID", message: error.message)
            }
        }
        // On a device, the tip's `platforms` entry replaces the fields it sets.
        let content = tip.content(for: device)
        var actions: [ResolvedAction] = []
        for action in content.actions { actions.append(ResolvedAction(id: action.id, title: try text(action.title))) }
        return ResolvedTip(
            tipID: tip.id, instanceID: instanceID, locale: locale, title: try text(content.title),
            message: try content.message.map { (message) throws(ResolveError) in try text(message) },
            image: content.image, actions: actions, parameters: values)
    }

    /// The value at a dotted path (`trail.name`) in a parameter dictionary.
    public static func value(at path: String, in values: [String: Value]) -> Value? {
        path.followPath({ name in values[String(name)] }) { value, name in
            guard case .record(let fields) = value else { return nil }
            return fields[String(name)]
        }
    }
}

/// Reads parameter values written on a command line (`--param trail.id=butler-fork`) or in a JSON file.
public enum ParameterValues {
    /// Parses `text` as a value of `type`: numbers, `true`/`false`, ISO 8601 dates; lists, sets and records as
    /// JSON (`["a","b"]`, `{"id": "x"}`); for lists and sets of strings also a comma-separated list. A string
    /// is the bare text (`satellite`), or a JSON string (`"satellite"`, as a tip file writes it), unquoted once.
    /// An optional type reads its wrapped type (`assemble` treats an empty text as absent first).
    public static func parse(_ text: String, as type: ValueType) -> Value? {
        switch type {
        case .optional(let wrapped): return parse(text, as: wrapped)
        case .string:
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""),
               let document = try? JSONDocument.parse(text: text), case .string(let unquoted) = document.root.value {
                return .string(unquoted)
            }
            return .string(text)
        case .int: return Int(text).map(Value.int)
        case .double: return Double(text).flatMap { $0.isFinite ? Value.double($0) : nil }
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return nil
            }
        case .date: return Timestamp(iso8601: text).map(Value.date)
        case .list, .set, .record:
            if let first = text.first, first == "[" || first == "{",
               let document = try? JSONDocument.parse(text: text) {
                return value(document.root, as: type)
            }
            if let element = type.elementType, element == .string {
                let items = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map { Value.string(String($0)) }
                if case .set = type { return .set(unique(items)) }
                return .list(items)
            }
            return nil
        }
    }

    /// A JSON value as a value of `type` (dates as ISO 8601 strings), or nil when it does not fit. A record may
    /// leave out its optional fields (or set them to null).
    public static func value(_ node: JSONNode, as type: ValueType) -> Value? {
        switch (type, node.value) {
        case (.optional(let wrapped), _): return value(node, as: wrapped)
        case (.string, .string(let text)): return .string(text)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .number(let number)): return number.intValue.map(Value.int)
        case (.double, .number(let number)): return .double(number.doubleValue)
        case (.date, .string(let text)): return Timestamp(iso8601: text).map(Value.date)
        case (.list(let element), .array(let items)):
            let values = items.compactMap { value($0, as: element) }
            return values.count == items.count ? .list(values) : nil
        case (.set(let element), .array(let items)):
            let values = items.compactMap { value($0, as: element) }
            return values.count == items.count ? .set(unique(values)) : nil
        case (.record(let fields), .object(let object)):
            var values: [String: Value] = [:]
            for member in object.members {
                guard let field = fields.first(where: { $0.name == member.key }) else { return nil }
                if case .null = member.value.value, field.type.isOptional { continue }
                guard let fieldValue = value(member.value, as: field.type) else { return nil }
                values[member.key] = fieldValue
            }
            return fields.allSatisfy { values[$0.name] != nil || $0.type.isOptional } ? .record(values) : nil
        default: return nil
        }
    }

    private static func unique(_ values: [Value]) -> [Value] {
        var seen: [Value] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }
}

extension ParameterValues {
    /// Builds a tip's parameter values from `name=value` pairs as typed on a command line. A dotted name sets
    /// one field of a record parameter (`trail.id=butler-fork trail.name="Butler Fork"`); a later pair wins.
    /// An empty text for an optional parameter or field (`nickname=`) leaves it absent (nil); an empty string
    /// is written as JSON, `nickname='""'`.
    public static func assemble(_ pairs: [(name: String, text: String)], for tip: Tip) throws(ResolveError) -> [String: Value] {
        var values: [String: Value] = [:]
        var fields: [String: [String: Value]] = [:]
        for (name, text) in pairs {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            let head = parts.first ?? name
            guard let type = tip.parameter(head) else {
                throw .unknownParameter(tip: tip.id, name: head, suggestion: Suggestions.closest(to: head, in: tip.parameters.map(\.name)))
            }
            if parts.count == 2 {
                guard let fieldType = type.parameterField(parts[1]) else {
                    throw .unknownParameter(tip: tip.id, name: name, suggestion: nil)
                }
                if fieldType.isOptional, text.isEmpty {
                    fields[head, default: [:]][parts[1]] = nil
                    if fields[head] == nil { fields[head] = [:] }
                    continue
                }
                guard let value = parse(text, as: fieldType) else {
                    throw .invalidValue(tip: tip.id, name: name, expected: fieldType, text: text)
                }
                fields[head, default: [:]][parts[1]] = value
            } else if type.isOptional, text.isEmpty {
                values[name] = nil
            } else {
                guard let value = parse(text, as: type) else { throw .invalidValue(tip: tip.id, name: name, expected: type, text: text) }
                values[name] = value
            }
        }
        for (head, set) in fields {
            var record: [String: Value] = [:]
            if case .record(let existing)? = values[head] { record = existing }
            record.merge(set) { _, new in new }
            values[head] = .record(record)
        }
        return values
    }
}

extension ValueType {
    /// The type at a dotted field path inside a record type (`region` or `place.name`).
    func parameterField(_ path: String) -> ValueType? {
        var type = self
        for part in path.split(separator: ".") {
            guard let next = type.wrapped.field(String(part)) else { return nil }
            type = next
        }
        return type
    }
}
