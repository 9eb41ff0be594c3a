import TipcatCore
import TipcatJSON

/// Canonical JSON for `ValueType`s and `Value`s.
///
/// Types: scalars and collections of scalars as their textual form (`"int"`, `"list<string>"`); records as
/// `{"record": [{"name": …, "type": …}]}` (field order kept); collections of records as `{"list": T}` /
/// `{"set": T}`; optional types as `"string?"`, or `{"optional": T}` when a record is inside. Values: JSON values, read back with the declared type; dates as ISO 8601 text (or seconds when
/// the text would round them), non-finite doubles as `"NaN"`, `"Infinity"`, `"-Infinity"`.
enum ValueCodec {
    static func encode(_ type: ValueType) -> JSONValue {
        switch type {
        case .string, .int, .double, .bool, .date: return .string(type.description)
        case .list(let element):
            return element.containsRecord ? .object([("list", encode(element))]) : .string(type.description)
        case .set(let element):
            return element.containsRecord ? .object([("set", encode(element))]) : .string(type.description)
        case .record(let fields):
            return .object([("record", encode(fields))])
        case .optional(let wrapped):
            return wrapped.containsRecord ? .object([("optional", encode(wrapped))]) : .string(type.description)
        }
    }

    static func encode(_ fields: [ValueType.RecordField]) -> JSONValue {
        .array(fields.map { .object([("name", .string($0.name)), ("type", encode($0.type))]) })
    }

    static func decodeType(_ reader: JSONReader) throws(CatalogDecodingError) -> ValueType {
        if case .string(let text) = reader.value {
            guard let type = ValueType.parse(text) else { throw reader.fail("unknown type '\(text)'") }
            return type
        }
        let object = try reader.object()
        guard object.count == 1, let member = object.members.first else { throw reader.fail("a type object has exactly one key") }
        let inner = JSONReader(member.value.value, path: reader.child(member.key))
        switch member.key {
        case "list": return .list(try decodeType(inner))
        case "set": return .set(try decodeType(inner))
        case "record": return .record(try decodeFields(inner))
        case "optional":
            let wrapped = try decodeType(inner)
            if wrapped.isOptional { throw reader.fail("an optional type wraps a non-optional type") }
            return .optional(wrapped)
        default: throw reader.fail("unknown type kind '\(member.key)'")
        }
    }

    static func decodeFields(_ reader: JSONReader) throws(CatalogDecodingError) -> [ValueType.RecordField] {
        var fields: [ValueType.RecordField] = []
        for element in try reader.elements() {
            fields.append(.init(try element.member("name").string(), try decodeType(element.member("type"))))
        }
        return fields
    }

    static func encode(_ value: Value) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(number)
        case .double(let number):
            if number.isNaN { return .string("NaN") }
            if number.isInfinite { return .string(number > 0 ? "Infinity" : "-Infinity") }
            return .double(number)
        case .bool(let flag): return .bool(flag)
        case .date(let stamp):
            let text = stamp.iso8601
            if Timestamp(iso8601: text) == stamp { return .string(text) }
            return .double(stamp.secondsSince1970)
        case .list(let values), .set(let values): return .array(values.map(encode))
        case .record(let fields): return .object(fields.keys.sorted().map { ($0, encode(fields[$0] ?? .bool(false))) })
        }
    }

    /// Reads a value written by `encode(_:)` as `type`; JSON that does not fit the type is read as what it is.
    static func decodeValue(_ reader: JSONReader, as type: ValueType?) throws(CatalogDecodingError) -> Value {
        switch (type, reader.value) {
        case (.optional(let wrapped)?, _):
            return try decodeValue(reader, as: wrapped)
        case (.double?, .string(let text)) where ["NaN", "Infinity", "-Infinity"].contains(text):
            return .double(text == "NaN" ? .nan : text == "Infinity" ? .infinity : -.infinity)
        case (.date?, .string(let text)):
            guard let stamp = Timestamp(iso8601: text) else { throw reader.fail("'\(text)' is not an ISO 8601 date") }
            return .date(stamp)
        case (.date?, .number(let number)):
            return .date(Timestamp(secondsSince1970: number.doubleValue))
        case (.double?, .number(let number)) where !number.isInteger:
            return .double(number.doubleValue)
        case (.list(let element)?, .array):
            return .list(try reader.elements().map { (item) throws(CatalogDecodingError) in try decodeValue(item, as: element) })
        case (.set(let element)?, .array):
            return .set(try reader.elements().map { (item) throws(CatalogDecodingError) in try decodeValue(item, as: element) })
        case (.record(let fields)?, .object):
            var values: [String: Value] = [:]
            for (key, member) in try reader.members() {
                values[key] = try decodeValue(member, as: fields.first { $0.name == key }?.type)
            }
            return .record(values)
        default:
            return try decodeUntyped(reader)
        }
    }

    private static func decodeUntyped(_ reader: JSONReader) throws(CatalogDecodingError) -> Value {
        switch reader.value {
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if number.isInteger, let int = number.intValue { return .int(int) }
            return .double(number.doubleValue)
        case .array:
            return .list(try reader.elements().map { (item) throws(CatalogDecodingError) in try decodeUntyped(item) })
        case .object:
            var values: [String: Value] = [:]
            for (key, member) in try reader.members() { values[key] = try decodeUntyped(member) }
            return .record(values)
        case .null:
            throw reader.fail("expected a value, found null")
        }
    }

    /// A duration as its short text (`5m`) when that reads back exactly, else as seconds.
    static func encode(_ span: TimeSpan) -> JSONValue {
        let text = span.description
        if TimeSpan(text)?.seconds == span.seconds { return .string(text) }
        return .double(span.seconds)
    }

    static func decodeSpan(_ reader: JSONReader) throws(CatalogDecodingError) -> TimeSpan {
        switch reader.value {
        case .string(let text):
            guard let span = TimeSpan(text) else { throw reader.fail("'\(text)' is not a duration") }
            return span
        case .number(let number):
            return TimeSpan(seconds: number.doubleValue)
        default:
            throw reader.fail("expected a duration, found \(reader.value.kindName)")
        }
    }
}

extension ValueType {
    /// Whether a record appears anywhere in the type (records have no textual form).
    var containsRecord: Bool {
        switch self {
        case .record: true
        case .list(let element), .set(let element), .optional(let element): element.containsRecord
        default: false
        }
    }
}
