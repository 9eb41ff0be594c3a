import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatPlugin

/// `tipcat generate tipkit`: the catalog for apps on Apple's TipKit — one `struct … : Tip` per tip (title,
/// message, image, actions, rules, options), the app parameters as `@Parameter`s and the events as
/// `Tips.Event`s shared by every tip's rules. Texts are looked up by their String Catalog keys; what TipKit cannot
/// express is listed in a comment on the tip.
///
/// Options: `namespace` (the enum holding parameters and events; default `TipCatalog`, file
/// `<namespace>+TipKit.swift`), `bundle` (`main`, the default, or `module`: where the String Catalog is).
struct TipKitGenerator: CatalogGenerator {
    func generate(catalog: Catalog, options: [String: PluginJSON]) throws -> [PluginFile] {
        let namespace = try SwiftSource.typeOption(options, "namespace", default: "TipCatalog")
        var bundle = "main"
        if let value = options["bundle"] {
            guard let text = value.stringValue, ["main", "module"].contains(text) else {
                throw SwiftGenerationError("option 'bundle' is main or module")
            }
            bundle = text
        }
        var writer = Writer(catalog: catalog, namespace: namespace, bundle: "." + bundle)
        return [PluginFile(path: namespace + "+TipKit.swift", contents: writer.file())]
    }

    struct Writer {
        let catalog: Catalog
        let namespace: String
        let bundle: String
        let parameterNames: [String: String]
        let eventNames: [String: String]
        let eventTypes: [String: String]

        init(catalog: Catalog, namespace: String, bundle: String) {
            self.catalog = catalog
            self.namespace = namespace
            self.bundle = bundle
            let parameters = SwiftSource.unique(catalog.parameters.map { SwiftSource.memberName($0.name.rawValue) })
            parameterNames = Dictionary(zip(catalog.parameters.map(\.name.rawValue), parameters), uniquingKeysWith: { a, _ in a })
            let events = SwiftSource.unique(catalog.events.map { SwiftSource.memberName($0.id.rawValue) })
            eventNames = Dictionary(zip(catalog.events.map(\.id.rawValue), events), uniquingKeysWith: { a, _ in a })
            let types = SwiftSource.unique(catalog.events.map { SwiftSource.typeName($0.id.rawValue) + "Donation" })
            eventTypes = Dictionary(zip(catalog.events.map(\.id.rawValue), types), uniquingKeysWith: { a, _ in a })
        }

        mutating func file() -> String {
            var lines = SwiftSource.header("tipkit", catalog: catalog)
            lines += ["", "import SwiftUI", "import TipKit", ""]
            lines.append("/// The app parameters and events of the catalog \(SwiftSource.comment(catalog.settings.name)), shared by the tips' rules.")
            lines.append("enum \(namespace) {")
            lines.append("    /// App parameters (set them as the app's state changes: `\(namespace).Parameters.isLoggedIn = true`).")
            lines.append("    enum Parameters {")
            var records: [String] = []
            for parameter in catalog.parameters {
                let name = parameterNames[parameter.name.rawValue] ?? "_"
                let type = swiftType(parameter.type, name: SwiftSource.typeName(parameter.name.rawValue), records: &records, indent: "        ")
                lines.append("        /// `$\(SwiftSource.comment(parameter.name.rawValue))`, \(parameter.type), \(parameter.lifetime.rawValue)"
                             + (parameter.description.map { ": " + SwiftSource.comment($0) } ?? "."))
                let attribute = parameter.lifetime == .transient ? "@Parameter(.transient)" : "@Parameter"
                lines.append("        \(attribute) static var \(name): \(type) = \(literal(parameter.defaultValue, parameter.type))")
            }
            lines += records
            lines.append("    }")
            lines.append("")
            lines.append("    /// Events (donate them as they happen: `await \(namespace).Events.openedMap.donate()`).")
            lines.append("    enum Events {")
            for event in catalog.events {
                let name = eventNames[event.id.rawValue] ?? "_"
                if let description = event.description { lines.append("        /// " + SwiftSource.comment(description)) }
                if event.fields.isEmpty {
                    lines.append("        static let \(name) = Tips.Event(id: \(SwiftSource.string(event.id.rawValue)))")
                    continue
                }
                let type = eventTypes[event.id.rawValue] ?? "_"
                lines.append("        static let \(name) = Tips.Event<\(type)>(id: \(SwiftSource.string(event.id.rawValue)))")
            }
            for event in catalog.events where !event.fields.isEmpty {
                let type = eventTypes[event.id.rawValue] ?? "_"
                var nested: [String] = []
                lines.append("")
                lines.append("        /// What a donation of `#\(SwiftSource.comment(event.id.rawValue))` carries.")
                lines.append("        struct \(type): Codable, Sendable, Hashable {")
                for field in event.fields {
                    let fieldType = swiftType(field.type, name: SwiftSource.typeName(field.name), records: &nested, indent: "            ")
                    lines.append("            var \(SwiftSource.memberName(field.name)): \(fieldType)")
                }
                lines += nested
                lines.append("        }")
            }
            lines.append("    }")
            lines.append("")
            lines.append("    /// The localized text `template` with its `{name}` placeholders replaced.")
            lines.append("    static func fill(_ template: String, _ values: [String: String]) -> String {")
            lines.append("        var text = template")
            lines.append("        for (name, value) in values { text = text.replacingOccurrences(of: \"{\" + name + \"}\", with: value) }")
            lines.append("        return text")
            lines.append("    }")
            lines.append("}")
            // The namespace's name is taken.
            let tipTypes = Array(SwiftSource.unique([namespace] + catalog.tips.map { SwiftSource.typeName($0.id.rawValue) }).dropFirst())
            for (tip, type) in zip(catalog.tips, tipTypes) {
                lines.append("")
                lines += tipStruct(tip, type: type)
            }
            if !catalog.groups.isEmpty {
                lines.append("")
                lines.append("// Tip groups (TipKit's TipGroup, iOS 18 and later):")
                let typeOfTip = Dictionary(zip(catalog.tips.map(\.id), tipTypes), uniquingKeysWith: { first, _ in first })
                for group in catalog.groups {
                    let members = group.tips.map { id in typeOfTip[id].map { $0 + "()" } ?? SwiftSource.comment(id.rawValue) }
                    lines.append("// - \(SwiftSource.comment(group.id.rawValue)): TipGroup(.\(group.priority.rawValue)) { \(members.joined(separator: "; ")) }")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// One tip.
        func tipStruct(_ tip: Tip, type: String) -> [String] {
            var lines: [String] = []
            if let comment = tip.comment { lines.append("/// " + SwiftSource.comment(comment)) }
            lines.append("struct \(type): Tip {")
            var notes: [String] = []
            // The tip's own parameters become stored properties.
            var records: [String] = []
            let labels = Writer.tipParameterLabels(tip)
            for (parameter, label) in zip(tip.parameters, labels) {
                let swift = swiftType(parameter.type, name: SwiftSource.typeName(parameter.name), records: &records, indent: "    ")
                lines.append("    var \(label): \(swift)")
            }
            lines += records
            if !tip.parameters.isEmpty { lines.append("") }
            if let template = tip.customID {
                lines.append("    var id: String { " + filled(SwiftSource.string(template.source), template, tip, notes: &notes, what: "the custom ID") + " }")
            } else {
                lines.append("    var id: String { \(SwiftSource.string(tip.id.rawValue)) }")
            }
            lines.append("    var title: Text { \(text(tip.title, tip, notes: &notes, what: "the title")) }")
            if let message = tip.message {
                lines.append("    var message: Text? { \(text(message, tip, notes: &notes, what: "the message")) }")
            }
            if let image = tip.image {
                lines.append("    var image: Image? { Image(systemName: \(SwiftSource.string(image))) }")
            }
            if !tip.actions.isEmpty {
                lines.append("    var actions: [Action] {")
                lines.append("        [")
                for action in tip.actions {
                    lines.append("            Action(id: \(SwiftSource.string(action.id))) { \(text(action.title, tip, notes: &notes, what: "the action '\(action.id)'")) },")
                }
                lines.append("        ]")
                lines.append("    }")
            }
            let translator = TipKitRuleTranslator(
                // `$class` needs no backticks: the `$` already makes it an identifier (and `$`class`` does not parse).
                parameterReference: { name in parameterNames[name].map { "\(namespace).Parameters.$" + $0.filter { $0 != "`" } } },
                eventReference: { id in eventNames[id].map { "\(namespace).Events." + $0 } },
                fieldName: { SwiftSource.memberName($0) },
                eventFields: { id in catalog.event(EventID(id))?.fields.map(\.name) ?? [] })
            var rules: [String] = []
            for (number, rule) in tip.rules.enumerated() {
                let (translated, untranslated) = translator.translate(rule.source)
                rules += translated
                for part in untranslated {
                    notes.append("rule \(number + 1): `\(SwiftSource.comment(part.text))` — \(part.reason)")
                }
            }
            if !rules.isEmpty {
                lines.append("    var rules: [Rule] {")
                lines.append("        [")
                lines += rules.map { "            " + $0 + "," }
                lines.append("        ]")
                lines.append("    }")
            }
            var options: [String] = []
            if let count = tip.options.maxDisplayCount { options.append("Tips.MaxDisplayCount(\(count))") }
            if tip.options.ignoresDisplayFrequency { options.append("Tips.IgnoresDisplayFrequency(true)") }
            if let duration = tip.options.maxDisplayDuration {
                notes.append("maxDisplayDuration \(duration): TipKit has no maximum display duration")
            }
            if !options.isEmpty {
                lines.append("    var options: [any TipOption] { [\(options.joined(separator: ", "))] }")
            }
            if !tip.platforms.isEmpty {
                let devices = Device.allCases.filter { tip.platforms[$0] != nil }.map(\.rawValue)
                notes.append("platform variants (\(devices.joined(separator: ", "))) are not generated; the tip shows its own texts everywhere")
            }
            if !notes.isEmpty {
                lines.append("")
                lines.append("    // Not expressed in TipKit (the tip may show where the catalog's engine would not):")
                lines += notes.map { "    // - " + SwiftSource.comment($0) }
            }
            lines.append("}")
            return lines
        }

        /// A text by its String Catalog key; with placeholders, the localized string filled with the tip's values.
        func text(_ text: LocalizedText, _ tip: Tip, notes: inout [String], what: String) -> String {
            guard let message = text.message, !message.placeholders.isEmpty else {
                return "Text(\(SwiftSource.string(text.key)), bundle: \(bundle))"
            }
            let localized = "String(localized: \(SwiftSource.string(text.key)), bundle: \(bundle))"
            return "Text(verbatim: " + filled(localized, text, tip, notes: &notes, what: what) + ")"
        }

        /// `TipCatalog.fill(template, ["trail.name": trail.name, …])` for the placeholders of `text`.
        func filled(_ template: String, _ text: LocalizedText, _ tip: Tip, notes: inout [String], what: String) -> String {
            guard let message = text.message else { return template }
            if message.parts.contains(where: { if case .text = $0 { return false }; if case .placeholder = $0 { return false }; return true }) {
                notes.append("\(what): plural, select and number forms are not formatted (only {name} placeholders are filled)")
            }
            var pairs: [String] = []
            for path in message.placeholders.map(\.path).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
                guard let expression = stringExpression(path, tip) else { continue }
                pairs.append("\(SwiftSource.string(path)): \(expression)")
            }
            return "\(namespace).fill(\(template), [\(pairs.isEmpty ? ":" : pairs.joined(separator: ", "))])"
        }

        /// A `String` expression for a placeholder path of the tip's parameters (`trail.name` → `"\(trail.name)"`);
        /// an absent optional is empty text.
        func stringExpression(_ path: String, _ tip: Tip) -> String? {
            let parts = path.split(separator: ".").map(String.init)
            guard let first = parts.first, var type = tip.parameter(first) else { return nil }
            guard let index = tip.parameters.firstIndex(where: { $0.name == first }) else { return nil }
            var expression = Writer.tipParameterLabels(tip)[index]
            var optional = type.isOptional
            for part in parts.dropFirst() {
                if case .optional(let wrapped) = type { type = wrapped }
                guard let next = type.field(part) else { return nil }
                expression += (optional ? "?." : ".") + SwiftSource.memberName(part)
                if next.isOptional { optional = true }
                type = next
            }
            return optional ? "\(expression).map { \"\\($0)\" } ?? \"\"" : "\"\\(\(expression))\""
        }

        /// The property names of a tip's parameters: never one of the `Tip` protocol's members.
        static func tipParameterLabels(_ tip: Tip) -> [String] {
            let taken = ["id", "title", "message", "image", "actions", "rules", "options", "status", "shouldDisplay", "invalidate"]
            return Array(SwiftSource.unique(taken + tip.parameters.map { SwiftSource.memberName($0.name) }).dropFirst(taken.count))
        }

        /// The TipKit (Codable) Swift type; records become structs appended to `records`.
        func swiftType(_ type: ValueType, name: String, records: inout [String], indent: String) -> String {
            switch type {
            case .string: return "String"
            case .int: return "Int"
            case .double: return "Double"
            case .bool: return "Bool"
            case .date: return "Date"
            case .list(let element): return "[" + swiftType(element, name: name + "Element", records: &records, indent: indent) + "]"
            case .set(let element): return "Set<" + swiftType(element, name: name + "Element", records: &records, indent: indent) + ">"
            case .optional(let wrapped): return swiftType(wrapped, name: name, records: &records, indent: indent) + "?"
            case .record(let fields):
                var inner: [String] = []
                var declaration = ["", indent + "struct \(name): Codable, Sendable, Hashable {"]
                for field in fields {
                    let fieldType = swiftType(field.type, name: SwiftSource.typeName(field.name), records: &inner, indent: indent + "    ")
                    declaration.append(indent + "    var \(SwiftSource.memberName(field.name)): \(fieldType)")
                }
                declaration += inner
                declaration.append(indent + "}")
                records += declaration
                return name
            }
        }

        /// A Swift literal for a default value of `type`.
        func literal(_ value: Value, _ type: ValueType) -> String {
            var type = type
            if case .optional(let wrapped) = type { type = wrapped }
            switch (value, type) {
            case (.string(let text), _): return SwiftSource.string(text)
            case (.int(let number), .double): return String(Double(number))
            case (.int(let number), _): return String(number)
            case (.double(let number), _): return number.isFinite ? String(number) : "0"
            case (.bool(let flag), _): return flag ? "true" : "false"
            case (.date(let time), _):
                let seconds = time.secondsSince1970
                return "Date(timeIntervalSince1970: \(seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)))"
            case (.list(let values), .list(let element)), (.set(let values), .set(let element)), (.list(let values), .set(let element)):
                return "[" + values.map { literal($0, element) }.joined(separator: ", ") + "]"
            case (.record(let fields), .record(let declared)):
                return "." + "init(" + declared.compactMap { field in
                    fields[field.name].map { SwiftSource.memberName(field.name) + ": " + literal($0, field.type) }
                        ?? (field.type.isOptional ? SwiftSource.memberName(field.name) + ": nil" : nil)
                }.joined(separator: ", ") + ")"
            default:
                return "nil"
            }
        }
    }
}
