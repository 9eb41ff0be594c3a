import TipcatCore
import TipcatJSON

/// Reads types (`"int"`, `"list<string>"`, `{"id": "string"}`) and typed values from JSON.
struct TypeDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink

    private static let typeNames = ValueType.scalarNames + ["list<string>", "set<string>"]

    /// Names people bring from other languages, mapped to ours for a precise did-you-mean.
    private static let synonyms = [
        "integer": "int", "Int": "int", "long": "int", "boolean": "bool", "Bool": "bool", "float": "double",
        "number": "double", "Double": "double", "str": "string", "String": "string", "text": "string",
        "Date": "date", "datetime": "date", "timestamp": "date", "array<string>": "list<string>",
    ]

    private static func suggestion(for text: String) -> String {
        if let synonym = synonyms[text] { return "; did you mean '\(synonym)'?" }
        return Suggestions.didYouMean(text, in: typeNames)
    }

    /// A type; `what` names it in messages ("parameter 'trail'"). `optionalsWhy` is nil where optional types
    /// (`string?`) are allowed, else the reason they are not.
    func type(
        _ node: JSONNode, what: String, allowRecords: Bool = true, allowCollections: Bool = true, optionalsWhy: String? = nil
    ) -> ValueType? {
        switch node.value {
        case .string(let text):
            guard let type = ValueType.parse(text) else {
                if text.contains("?"), ValueType.parse(String(text.filter { $0 != "?" })) != nil {
                    sink.add(.nestedOptionalType(text, for: what, at: document.location(of: node)))
                    return nil
                }
                sink.add(.unknownType(text, for: what, suggestion: TypeDecoder.suggestion(for: text), at: document.location(of: node)))
                return nil
            }
            if let optionalsWhy, type.isOptional {
                sink.add(.optionalTypeNotAllowed(text, for: what, why: optionalsWhy, at: document.location(of: node)))
                return nil
            }
            if !allowCollections, type.wrapped.elementType != nil {
                sink.add(.nonScalarType(text, for: what, at: document.location(of: node)))
                return nil
            }
            return type
        case .object(let object) where allowRecords:
            if object.members.isEmpty {
                sink.add(.emptyRecordType(for: what, at: document.location(of: node)))
                return nil
            }
            var fields: [ValueType.RecordField] = []
            var seen = Set<String>()
            var valid = true
            for member in object.members {
                guard IdentifierSyntax.isIdentifier(member.key) else {
                    sink.add(.invalidFieldName(member.key, in: what, at: document.location(ofByte: member.keyOffset)))
                    valid = false
                    continue
                }
                guard seen.insert(member.key).inserted else {
                    sink.add(.duplicateField(member.key, in: what, at: document.location(ofByte: member.keyOffset)))
                    valid = false
                    continue
                }
                if let fieldType = type(member.value, what: "field '\(member.key)' of \(what)", optionalsWhy: optionalsWhy) {
                    fields.append(.init(member.key, fieldType))
                } else {
                    valid = false
                }
            }
            return valid ? .record(fields) : nil
        default:
            let expected = allowRecords ? "a type name such as \"int\" or an object of fields" : "a type name such as \"int\""
            sink.add(.typeNotAName(of: what, expected: expected, found: node.value.kindDescription, at: document.location(of: node)))
            return nil
        }
    }

    /// A value of `type`; `what` names it in messages ("default of parameter 'isLoggedIn'"). A value of an
    /// optional type is a value of the wrapped type (absence is written by leaving the value out).
    func value(_ node: JSONNode, of type: ValueType, what: String) -> Value? {
        func mismatch(_ expected: String) -> Value? {
            sink.report("\(what) must be \(expected), found \(node.value.kindDescription)", rule: .typeMismatch,
                        at: document.location(of: node))
            return nil
        }
        switch (type, node.value) {
        case (.optional(let wrapped), _):
            return value(node, of: wrapped, what: what)
        case (.string, .string(let text)):
            return .string(text)
        case (.bool, .bool(let flag)):
            return .bool(flag)
        case (.int, .number(let number)):
            guard let value = number.intValue else { return mismatch("a whole number (int)") }
            return .int(value)
        case (.double, .number(let number)):
            return number.isInteger && number.intValue != nil ? .double(Double(number.intValue ?? 0)) : .double(number.doubleValue)
        case (.date, .string(let text)):
            guard let stamp = Timestamp(iso8601: text) else {
                sink.report("\(what) must be an ISO 8601 date such as \"2026-01-01T09:00:00Z\", found \"\(text)\"",
                            rule: .typeMismatch, at: document.location(of: node))
                return nil
            }
            return .date(stamp)
        case (.list(let element), .array(let items)), (.set(let element), .array(let items)):
            var values: [Value] = []
            var valid = true
            for (index, item) in items.enumerated() {
                if let value = value(item, of: element, what: "element \(index) of \(what)") { values.append(value) } else { valid = false }
            }
            guard valid else { return nil }
            if case .set = type {
                var unique: [Value] = []
                for value in values where !unique.contains(value) { unique.append(value) }
                return .set(unique)
            }
            return .list(values)
        case (.record(let fields), .object(let object)):
            var values: [String: Value] = [:]
            var valid = true
            for member in object.members {
                guard let field = fields.first(where: { $0.name == member.key }) else {
                    sink.report("\(what) has no field '\(member.key)'" + Suggestions.didYouMean(member.key, in: fields.map(\.name)),
                                rule: .unknownField, at: document.location(ofByte: member.keyOffset))
                    valid = false
                    continue
                }
                if let value = value(member.value, of: field.type, what: "'\(member.key)' of \(what)") {
                    values[member.key] = value
                } else {
                    valid = false
                }
            }
            for field in fields where !field.type.isOptional && values[field.name] == nil && object[field.name] == nil {
                sink.add(.missingField(field.name, in: what, at: document.location(of: node)))
                valid = false
            }
            return valid ? .record(values) : nil
        case (.string, _): return mismatch("a string")
        case (.bool, _): return mismatch("true or false")
        case (.int, _): return mismatch("a whole number (int)")
        case (.double, _): return mismatch("a number")
        case (.date, _): return mismatch("an ISO 8601 date string")
        case (.list, _), (.set, _): return mismatch("an array")
        case (.record, _): return mismatch("an object")
        }
    }
}
