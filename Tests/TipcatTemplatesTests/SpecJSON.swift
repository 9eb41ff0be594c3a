import TipcatTemplates

/// A minimal JSON reader for the spec fixtures (the test target depends on no JSON module). It keeps
/// what matters to Mustache: integers stay integers (`85`), decimals doubles (`1.21`), key order is kept.
indirect enum SpecJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([SpecJSON])
    case object([(String, SpecJSON)])

    static func == (lhs: SpecJSON, rhs: SpecJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let fields): for (key, value) in fields { hasher.combine(key); hasher.combine(value) }
        }
    }

    subscript(key: String) -> SpecJSON? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "invalid JSON at byte \(offset)" }
    }

    static func parse(_ bytes: [UInt8]) throws -> SpecJSON {
        var reader = Reader(bytes: bytes)
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw SyntaxError(offset: reader.index) }
        return value
    }

    /// Converts to a template value; `replace` may substitute any object (the spec's lambda stand-ins).
    func templateValue(replacing replace: (SpecJSON) -> TemplateValue? = { _ in nil }) -> TemplateValue {
        if let replacement = replace(self) { return replacement }
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .array(let values): return .array(values.map { $0.templateValue(replacing: replace) })
        case .object(let fields):
            var object: [String: TemplateValue] = [:]
            for (key, value) in fields { object[key] = value.templateValue(replacing: replace) }
            return .object(object)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw SyntaxError(offset: index) }
                index += 1
            }
        }

        mutating func value() throws -> SpecJSON {
            skipSpace()
            guard index < bytes.count else { throw SyntaxError(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var values: [SpecJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
                while true {
                    values.append(try value())
                    skipSpace()
                    guard index < bytes.count else { throw SyntaxError(offset: index) }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
                    try expect(",")
                }
            case UInt8(ascii: "{"):
                index += 1
                var fields: [(String, SpecJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    fields.append((key, try value()))
                    skipSpace()
                    guard index < bytes.count else { throw SyntaxError(offset: index) }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                    try expect(",")
                }
            default:
                return try number()
            }
        }

        mutating func number() throws -> SpecJSON {
            let start = index
            let allowed = Set("0123456789+-.eE".utf8)
            while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = Int(text) { return .int(value) }
            guard let value = Double(text) else { throw SyntaxError(offset: start) }
            return .double(value)
        }

        mutating func string() throws -> String {
            try expect("\"")
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ reader: Reader, _ run: Int, _ scalars: inout String.UnicodeScalarView) {
                scalars.append(contentsOf: String(decoding: reader.bytes[run..<reader.index], as: UTF8.self).unicodeScalars)
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(self, run, &scalars)
                    index += 1
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else { index += 1; continue }
                flush(self, run, &scalars)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\") {
                        index += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw SyntaxError(offset: index) }
                    scalars.append(scalar)
                default: scalars.append(Unicode.Scalar(escape))
                }
                run = index
            }
            throw SyntaxError(offset: index)
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw SyntaxError(offset: index) }
            index += 4
            return value
        }
    }
}
