import TipcatCatalog
import TipcatCore
import TipcatPlugin

/// `tipcat generate swift`: typed Swift for apps on the tipcat engine — the catalog's tip, group, action,
/// parameter and event names as constants, and `TipEngine` / `TipEngineSession` methods that set each parameter,
/// donate each event and register each tip with parameters, with Swift types for the declared ones.
///
/// Options: `namespace` (the enum the names live in; default `TipCatalog`, file `<namespace>.swift`), `access`
/// (`public`, the default, or `internal`).
struct SwiftEngineGenerator: CatalogGenerator {
    func generate(catalog: Catalog, options: [String: PluginJSON]) throws -> [PluginFile] {
        let namespace = try SwiftSource.typeOption(options, "namespace", default: "TipCatalog")
        let access = try SwiftSource.accessLevel(options)
        var writer = Writer(catalog: catalog, namespace: namespace, access: access)
        return [PluginFile(path: namespace + ".swift", contents: writer.file())]
    }

    struct Writer {
        let catalog: Catalog
        let namespace: String
        let access: String
        /// Record types met on the way, as struct declarations, in the order met.
        var structs: [(name: String, lines: [String])] = []
        /// Where each struct is in `structs`, by name.
        var structIndex: [String: Int] = [:]

        init(catalog: Catalog, namespace: String, access: String) {
            self.catalog = catalog
            self.namespace = namespace
            self.access = access
        }

        mutating func file() -> String {
            let tipNames = SwiftSource.unique(catalog.tips.map { SwiftSource.memberName($0.id.rawValue) })
            let parameterNames = SwiftSource.unique(catalog.parameters.map { SwiftSource.memberName($0.name.rawValue) })
            let eventNames = SwiftSource.unique(catalog.events.map { SwiftSource.memberName($0.id.rawValue) })
            let groupNames = SwiftSource.unique(catalog.groups.map { SwiftSource.memberName($0.id.rawValue) })

            var body: [String] = []
            body.append("    /// Tip ids, in catalog order.")
            body.append("    \(access) enum TipIDs {")
            for (tip, name) in zip(catalog.tips, tipNames) {
                if let comment = tip.comment { body.append("        /// " + SwiftSource.comment(comment)) }
                body.append("        \(access) static let \(name): TipID = \(SwiftSource.string(tip.id.rawValue))")
            }
            body.append("        /// Every tip id.")
            body.append("        \(access) static let all: [TipID] = [" + tipNames.joined(separator: ", ") + "]")
            body.append("    }")
            body.append("")
            body.append("    /// Tip group ids.")
            body.append("    \(access) enum GroupIDs {")
            for (group, name) in zip(catalog.groups, groupNames) {
                body.append("        /// \(group.priority.rawValue): " + SwiftSource.comment(group.tips.map(\.rawValue).joined(separator: ", ")))
                body.append("        \(access) static let \(name): GroupID = \(SwiftSource.string(group.id.rawValue))")
            }
            body.append("    }")
            body.append("")
            body.append("    /// Action ids, by tip (for `performAction(_:action:)`).")
            body.append("    \(access) enum ActionIDs {")
            let tipTypes = SwiftSource.unique(catalog.tips.map { SwiftSource.typeName($0.id.rawValue) })
            for (tip, type) in zip(catalog.tips, tipTypes) where !tip.actions.isEmpty {
                body.append("        \(access) enum \(type) {")
                let actionNames = SwiftSource.unique(tip.actions.map { SwiftSource.memberName($0.id) })
                for (action, name) in zip(tip.actions, actionNames) {
                    body.append("            /// " + SwiftSource.comment(action.title.source))
                    body.append("            \(access) static let \(name) = \(SwiftSource.string(action.id))")
                }
                body.append("        }")
            }
            body.append("    }")
            body.append("")
            body.append("    /// App parameter names.")
            body.append("    \(access) enum ParameterNames {")
            for (parameter, name) in zip(catalog.parameters, parameterNames) {
                body.append("        /// \(parameter.type), \(parameter.lifetime.rawValue)" + (parameter.description.map { ": " + SwiftSource.comment($0) } ?? ""))
                body.append("        \(access) static let \(name): ParameterName = \(SwiftSource.string(parameter.name.rawValue))")
            }
            body.append("    }")
            body.append("")
            body.append("    /// Event ids.")
            body.append("    \(access) enum EventIDs {")
            for (event, name) in zip(catalog.events, eventNames) {
                if let description = event.description { body.append("        /// " + SwiftSource.comment(description)) }
                body.append("        \(access) static let \(name): EventID = \(SwiftSource.string(event.id.rawValue))")
            }
            body.append("    }")

            // Methods, once for the actor and once for the session.
            var methods: [(signature: String, doc: String, body: [String], returns: Bool)] = []
            for (parameter, name) in zip(catalog.parameters, parameterNames) {
                let type = swiftType(parameter.type, path: ["Parameter", parameter.name.rawValue])
                let value = valueExpression(parameter.type, "value", path: ["Parameter", parameter.name.rawValue])
                let method = "set" + SwiftSource.typeName(parameter.name.rawValue)
                methods.append((
                    "func \(method)(_ value: \(type)) throws(TipEngineError)",
                    "Sets `$\(SwiftSource.comment(parameter.name.rawValue))` (\(parameter.type), \(parameter.lifetime.rawValue))"
                        + (parameter.description.map { ": " + SwiftSource.comment($0) } ?? "."),
                    ["try setParameter(\(namespace).ParameterNames.\(name), to: \(value))"], false))
            }
            for (event, name) in zip(catalog.events, eventNames) {
                // `at` is the date's label: a field called `at` becomes `at2`.
                let fieldNames = SwiftSource.unique(["at"] + event.fields.map { SwiftSource.memberName($0.name) }).dropFirst()
                var arguments: [String] = []
                var lines: [String] = []
                if event.fields.isEmpty {
                    lines.append("try donate(\(namespace).EventIDs.\(name), [:], at: date)")
                } else {
                    lines.append("var values: [String: Value] = [:]")
                    for (field, label) in zip(event.fields, fieldNames) {
                        let path = ["Event", event.id.rawValue, field.name]
                        arguments.append("\(label): \(swiftType(field.type, path: path))")
                        lines.append("values[\(SwiftSource.string(field.name))] = " + optionalValue(field.type, label, path: path))
                    }
                    lines.append("try donate(\(namespace).EventIDs.\(name), values, at: date)")
                }
                arguments.append("at date: Timestamp? = nil")
                methods.append((
                    "func donate\(SwiftSource.typeName(event.id.rawValue))(\(arguments.joined(separator: ", "))) throws(TipEngineError)",
                    "Donates `#\(SwiftSource.comment(event.id.rawValue))` now, or at a past `date`"
                        + (event.description.map { ": " + SwiftSource.comment($0) } ?? "."),
                    lines, false))
            }
            for (tip, name) in zip(catalog.tips, tipNames) where !tip.parameters.isEmpty {
                let labels = SwiftSource.unique(tip.parameters.map { SwiftSource.memberName($0.name) })
                var arguments: [String] = []
                var lines = ["var parameters: [String: Value] = [:]"]
                for (parameter, label) in zip(tip.parameters, labels) {
                    let path = [tip.id.rawValue, parameter.name]
                    let type = swiftType(parameter.type, path: path)
                    arguments.append("\(label): \(type)" + (parameter.type.isOptional ? " = nil" : ""))
                    lines.append("parameters[\(SwiftSource.string(parameter.name))] = " + optionalValue(parameter.type, label, path: path))
                }
                lines.append("return try register(\(namespace).TipIDs.\(name), parameters: parameters)")
                methods.append((
                    "func register\(SwiftSource.typeName(tip.id.rawValue))(\(arguments.joined(separator: ", "))) throws(TipEngineError) -> TipInstanceID",
                    "Registers the instance of `\(SwiftSource.comment(tip.id.rawValue))` with these parameters and returns its id"
                        + (tip.customID.map { " (`" + SwiftSource.comment($0.source) + "`)" } ?? "") + ".",
                    lines, true))
            }

            var lines = SwiftSource.header("swift", catalog: catalog)
            lines += ["", "import TipcatCatalog", "import TipcatCore", "import TipcatEngine", ""]
            lines.append("/// The names of the catalog \(SwiftSource.comment(catalog.settings.name)), typed; the record types its parameters and events use.")
            lines.append("\(access) enum \(namespace) {")
            lines += body
            for (_, declaration) in structs {
                lines.append("")
                lines += declaration.map { $0.isEmpty ? "" : "    " + $0 }
            }
            lines.append("}")
            for (type, mutating) in [("TipEngine", ""), ("TipEngineSession", "mutating ")] {
                lines.append("")
                lines.append("extension \(type) {")
                for (index, method) in methods.enumerated() {
                    if index > 0 { lines.append("") }
                    lines.append("    /// " + method.doc)
                    if method.returns { lines.append("    @discardableResult") }
                    lines.append("    \(access) \(mutating)\(method.signature) {")
                    lines += method.body.map { "        " + $0 }
                    lines.append("    }")
                }
                lines.append("}")
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// The Swift type of a declared type; records become structs named after where they are declared.
        mutating func swiftType(_ type: ValueType, path: [String]) -> String {
            switch type {
            case .string: return "String"
            case .int: return "Int"
            case .double: return "Double"
            case .bool: return "Bool"
            case .date: return "Timestamp"
            case .list(let element), .set(let element): return "[" + swiftType(element, path: path + ["Element"]) + "]"
            case .optional(let wrapped): return swiftType(wrapped, path: path) + "?"
            case .record(let fields): return namespace + "." + recordStruct(fields, path: path)
            }
        }

        /// Declares (once) the struct for a record type and returns its name.
        mutating func recordStruct(_ fields: [ValueType.RecordField], path: [String]) -> String {
            let name = SwiftSource.safe(path.flatMap(SwiftSource.words).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(), type: true)
            if structIndex[name] != nil { return name }
            // The namespace's own enums keep their names.
            if ["TipIDs", "GroupIDs", "ActionIDs", "ParameterNames", "EventIDs", namespace].contains(name) {
                return recordStruct(fields, path: path + ["Record"])
            }
            structIndex[name] = structs.count
            structs.append((name, []))
            let labels = SwiftSource.unique(fields.map { SwiftSource.memberName($0.name) })
            var lines = ["/// A `" + SwiftSource.comment(ValueType.record(fields).description) + "`.",
                         "\(access) struct \(name): Sendable, Hashable {"]
            var arguments: [String] = []
            for (field, label) in zip(fields, labels) {
                let type = swiftType(field.type, path: path + [field.name])
                lines.append("    \(access) var \(label): \(type)")
                arguments.append("\(label): \(type)" + (field.type.isOptional ? " = nil" : ""))
            }
            lines.append("")
            lines.append("    \(access) init(\(arguments.joined(separator: ", "))) {")
            for label in labels {
                let bare = label.hasPrefix("`") ? String(label.dropFirst().dropLast()) : label
                lines.append("        self.\(bare) = \(label)")
            }
            lines.append("    }")
            lines.append("")
            lines.append("    /// The record as an engine value.")
            lines.append("    \(access) var value: Value {")
            lines.append("        var fields: [String: Value] = [:]")
            for (field, label) in zip(fields, labels) {
                let bare = label.hasPrefix("`") ? String(label.dropFirst().dropLast()) : label
                lines.append("        fields[\(SwiftSource.string(field.name))] = " + optionalValue(field.type, "self." + bare, path: path + [field.name]))
            }
            lines.append("        return .record(fields)")
            lines.append("    }")
            lines.append("}")
            if let index = structIndex[name] { structs[index].lines = lines }
            return name
        }

        /// A `Value?` expression for `expression` of `type` (nil only for an absent optional).
        mutating func optionalValue(_ type: ValueType, _ expression: String, path: [String]) -> String {
            if case .optional(let wrapped) = type {
                return "\(expression).map { \(valueExpression(wrapped, "$0", path: path)) }"
            }
            return valueExpression(type, expression, path: path)
        }

        /// A `Value` expression for a non-optional `expression` of `type`.
        mutating func valueExpression(_ type: ValueType, _ expression: String, path: [String]) -> String {
            switch type {
            case .string: return "Value.string(\(expression))"
            case .int: return "Value.int(\(expression))"
            case .double: return "Value.double(\(expression))"
            case .bool: return "Value.bool(\(expression))"
            case .date: return "Value.date(\(expression))"
            case .list(let element): return "Value.list(\(expression).map { \(valueExpression(element, "$0", path: path + ["Element"])) })"
            case .set(let element): return "Value.set(\(expression).map { \(valueExpression(element, "$0", path: path + ["Element"])) })"
            case .optional(let wrapped): return "(\(expression).map { \(valueExpression(wrapped, "$0", path: path)) } ?? Value.string(\"\"))"
            case .record(let fields):
                _ = recordStruct(fields, path: path)
                return "\(expression).value"
            }
        }
    }
}
