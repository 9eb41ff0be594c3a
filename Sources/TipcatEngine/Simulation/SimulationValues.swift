import TipcatCore

/// Reads typed values as scripts write them: `true`, `3`, `2.5`, `Rose` or `"Butler Fork"`,
/// `2026-01-01T09:00`, `[Rose, "Sweet pea"]`, `{id: butler-fork, region: "Big Cottonwood"}`.
enum SimulationValues {
    /// Parses `text` as a value of `type` (an optional type as its wrapped type: absence is written by leaving
    /// the value out). Failures carry a byte offset within `text`.
    static func parse(_ text: String, as type: ValueType) throws(SimulationLexer.Failure) -> Value {
        switch type {
        case .optional(let wrapped):
            return try parse(text, as: wrapped)
        case .string:
            if text.hasPrefix("\"") {
                guard let string = SimulationLexer.unquote(text) else {
                    throw SimulationLexer.Failure(message: "malformed string \(text)", offset: 0)
                }
                return .string(string)
            }
            return .string(text)
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw expected("true or false", text)
            }
        case .int:
            guard let value = Int(text) else { throw expected("a whole number", text) }
            return .int(value)
        case .double:
            guard let value = Double(text), value.isFinite else { throw expected("a number", text) }
            return .double(value)
        case .date:
            guard let value = Timestamp(iso8601: SimulationLexer.unquote(text) ?? text) else {
                throw expected("a date such as 2026-01-01T09:00", text)
            }
            return .date(value)
        case .list(let element), .set(let element):
            guard text.hasPrefix("["), text.hasSuffix("]"), text.utf8.count >= 2 else {
                throw expected("a list such as [a, b]", text)
            }
            let inner = String(decoding: Array(text.utf8).dropFirst().dropLast(), as: UTF8.self)
            var values: [Value] = []
            if !inner.trimmingWhitespace().isEmpty {
                for part in SimulationLexer.splitList(inner) {
                    do throws(SimulationLexer.Failure) {
                        values.append(try parse(part.text, as: element))
                    } catch {
                        throw SimulationLexer.Failure(message: error.message, offset: 1 + part.offset + error.offset)
                    }
                }
            }
            if case .set = type { return .set(values) }
            return .list(values)
        case .record(let fields):
            guard text.hasPrefix("{"), text.hasSuffix("}"), text.utf8.count >= 2 else {
                throw expected("a record such as {" + fields.map { "\($0.name): …" }.joined(separator: ", ") + "}", text)
            }
            let inner = String(decoding: Array(text.utf8).dropFirst().dropLast(), as: UTF8.self)
            var values: [String: Value] = [:]
            if !inner.trimmingWhitespace().isEmpty {
                for part in SimulationLexer.splitList(inner) {
                    let bytes = Array(part.text.utf8)
                    guard let colon = bytes.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "=") }) else {
                        throw SimulationLexer.Failure(message: "expected 'field: value' in the record", offset: 1 + part.offset)
                    }
                    let name = String(decoding: bytes[..<colon], as: UTF8.self).trimmingWhitespace()
                    guard let field = fields.first(where: { $0.name == name }) else {
                        throw SimulationLexer.Failure(
                            message: "unknown field '\(name)'" + Suggestions.didYouMean(name, in: fields.map(\.name)),
                            offset: 1 + part.offset)
                    }
                    var valueStart = colon + 1
                    while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
                    let valueText = String(decoding: bytes[valueStart...], as: UTF8.self)
                    do throws(SimulationLexer.Failure) {
                        values[name] = try parse(valueText, as: field.type)
                    } catch {
                        throw SimulationLexer.Failure(message: error.message, offset: 1 + part.offset + valueStart + error.offset)
                    }
                }
            }
            return .record(values)
        }
    }

    static func expected(_ what: String, _ text: String) -> SimulationLexer.Failure {
        SimulationLexer.Failure(message: "expected \(what), found '\(text)'", offset: 0)
    }
}
