import CXMLEvents
import Foundation
import TipcatCatalog

/// An XLIFF 1.2 file read for `tipcat strings import`: its `<file>`'s languages and its trans-units.
struct XLIFFFile {
    var path: String
    var original: String?
    var sourceLanguage: String?
    var targetLanguage: String?
    var units: [XLIFFUnit] = []
    /// Each unit's line, for messages.
    var lines: [Int] = []
    /// How many `<file>` elements the document has.
    var fileCount = 0
    /// Where the first `<file>` element is (1:1 when there is none).
    var fileLine = 1, fileColumn = 1
}

/// A located problem in an XLIFF file: printed as `path:line:col: error: message`.
struct XLIFFError: Error {
    var path: String
    var line: Int
    var column: Int
    var message: String
}

/// Reads XLIFF 1.2 with the system's libxml2 (loaded on first use, `CXMLEvents`), never resolving DTDs or
/// entities: a document with a DOCTYPE (or any entity or notation declaration, or a reference to an entity other
/// than XML's five) is refused before and while parsing, as are invalid UTF-8, nesting deeper than `maxDepth`,
/// and malformed XML.
enum XLIFFReader {
    /// The deepest element nesting accepted (XLIFF needs 5).
    static let maxDepth = 64

    static func read(_ bytes: [UInt8], path: String) throws(XLIFFError) -> XLIFFFile {
        if let offset = invalidUTF8Offset(bytes) {
            let (line, column) = position(of: offset, in: bytes)
            throw XLIFFError(path: path, line: line, column: column, message: "invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")
        }
        if let offset = find(Array("<!DOCTYPE".utf8), in: bytes) ?? find(Array("<!ENTITY".utf8), in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            throw XLIFFError(path: path, line: line, column: column, message: "a DOCTYPE or entity declaration is not allowed in XLIFF (DTDs and entities are never resolved)")
        }
        // libxml2 takes a document's length as a C int.
        guard bytes.count <= Int(Int32.max) else {
            throw XLIFFError(path: path, line: 1, column: 1, message: "the file is larger than the 2 GiB an XML document may have here")
        }
        let reading = Reading(path: path)
        var result = cxml_result()
        withExtendedLifetime(reading) {
            var events = cxml_events(
                context: Unmanaged.passUnretained(reading).toOpaque(),
                start: { context, name, attributes, line, column in
                    Reading.from(context)?.start(name: Reading.string(name), attributes: Reading.pairs(attributes), at: (line, column)) ?? 1
                },
                end: { context, name, line, column in
                    Reading.from(context)?.end(name: Reading.string(name), at: (line, column)) ?? 1
                },
                text: { context, bytes, length, line, column in
                    guard let bytes, length > 0 else { return 0 }
                    return Reading.from(context)?.text(UnsafeRawBufferPointer(start: bytes, count: Int(length)), at: (line, column)) ?? 1
                },
                refused: { context, what, name, line, column in
                    Reading.from(context)?.refuse(what, name: Reading.string(name), at: (line, column)) ?? 1
                })
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    cxml_parse(characters.baseAddress, Int32(characters.count), &events, &result)
                }
            }
        }
        if let failure = reading.failure { throw failure }
        switch result.outcome {
        case 0: break
        case 2:
            throw XLIFFError(path: path, line: max(Int(result.line), 1), column: max(Int(result.column), 1),
                             message: "malformed XML: \(Reading.message(result))")
        default:
            throw XLIFFError(path: path, line: 1, column: 1, message: Reading.message(result))
        }
        guard reading.sawRoot else {
            throw XLIFFError(path: path, line: 1, column: 1, message: "not an XLIFF document (no <xliff> element)")
        }
        return reading.file
    }

    /// The first byte that does not belong to well-formed UTF-8, nil when all do.
    static func invalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            for offset in 1..<length {
                let byte = bytes[index + offset]
                let (min, max) = offset == 1 ? (low, high) : (0x80, 0xBF)
                if byte < min || byte > max { return index }
            }
            index += length
        }
        return nil
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1, column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// What has been read of the document so far, told event by event; a callback returns 1 once `failure` is
    /// set (the parse stops there).
    private final class Reading {
        let path: String
        var file: XLIFFFile
        var failure: XLIFFError?
        var depth = 0
        var sawRoot = false
        /// The unit being read, with which of its children's text is being collected.
        var unit: XLIFFUnit?
        var unitLine = 0
        var collecting: String?
        var text: [UInt8] = []
        var source: String?
        var target: String?
        var state: String?
        var note: String?

        typealias Position = (line: Int32, column: Int32)

        init(path: String) {
            self.path = path
            self.file = XLIFFFile(path: path)
        }

        /// The reading a callback's context stands for: the parse is given `passUnretained(reading)` and runs inside
        /// `withExtendedLifetime(reading)`.
        static func from(_ context: UnsafeMutableRawPointer?) -> Reading? {
            context.map { Unmanaged<Reading>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
        }

        /// A C string from libxml2 (empty for none).
        static func string(_ text: UnsafePointer<CChar>?) -> String {
            text.map { String(cString: $0) } ?? ""
        }

        /// The attributes libxml2 gives (name, value pairs ending with a NULL name) by name.
        static func pairs(_ list: UnsafePointer<UnsafePointer<CChar>?>?) -> [String: String] {
            guard var pair = list else { return [:] }
            var attributes: [String: String] = [:]
            while let name = pair[0] {
                attributes[String(cString: name)] = pair[1].map { String(cString: $0) } ?? ""
                pair += 2
            }
            return attributes
        }

        /// libxml2's message in a result.
        static func message(_ result: cxml_result) -> String {
            var message = result.message
            let text = withUnsafeBytes(of: &message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            return text.isEmpty ? "unknown error" : text
        }

        private func fail(_ message: String, at position: Position) -> Int32 {
            if failure == nil {
                failure = XLIFFError(path: path, line: max(Int(position.line), 1), column: max(Int(position.column), 1), message: message)
            }
            return 1
        }

        func start(name elementName: String, attributes: [String: String], at position: Position) -> Int32 {
            depth += 1
            guard depth <= XLIFFReader.maxDepth else {
                return fail("elements are nested deeper than \(XLIFFReader.maxDepth) levels", at: position)
            }
            if depth == 1 {
                guard elementName == "xliff" else {
                    return fail("not an XLIFF document (the root element is <\(elementName)>, not <xliff>)", at: position)
                }
                sawRoot = true
                if let version = attributes["version"], version != "1.2" {
                    return fail("XLIFF version \(version) is not supported (only 1.2)", at: position)
                }
                return 0
            }
            switch elementName {
            case "file":
                file.fileCount += 1
                if file.fileCount == 1 {
                    (file.fileLine, file.fileColumn) = (max(Int(position.line), 1), max(Int(position.column), 1))
                    file.original = attributes["original"]
                    file.sourceLanguage = attributes["source-language"]
                    file.targetLanguage = attributes["target-language"]
                }
            case "trans-unit":
                guard let id = attributes["id"] else { return fail("a <trans-unit> has no id", at: position) }
                let (key, path) = XLIFFUnit.split(id: id)
                unit = XLIFFUnit(key: key, path: path, source: "")
                unitLine = Int(position.line)
                (source, target, state, note) = (nil, nil, nil, nil)
            case "source", "target", "note":
                guard unit != nil, collecting == nil else {
                    if let collecting { return fail("<\(elementName)> inside <\(collecting)> is not supported", at: position) }
                    return 0
                }
                collecting = elementName
                text = []
                if elementName == "target" { state = attributes["state"] }
            default:
                if let collecting {
                    return fail("<\(elementName)> inside <\(collecting)> is not supported (inline markup)", at: position)
                }
            }
            return 0
        }

        func end(name elementName: String, at position: Position) -> Int32 {
            depth -= 1
            if let element = collecting, element == elementName {
                let collected = String(decoding: text, as: UTF8.self)
                switch element {
                case "source": source = collected
                case "target": target = collected
                default: note = collected
                }
                collecting = nil
                return 0
            }
            if elementName == "trans-unit", var finished = unit {
                finished.source = source ?? ""
                finished.target = target
                finished.state = target == nil ? nil : state
                finished.note = note
                file.units.append(finished)
                file.lines.append(unitLine)
                unit = nil
            }
            return 0
        }

        func text(_ bytes: UnsafeRawBufferPointer, at position: Position) -> Int32 {
            if collecting != nil { text += bytes }
            return 0
        }

        func refuse(_ what: cxml_refusal, name: String, at position: Position) -> Int32 {
            switch what {
            case cxml_entity_reference:
                fail("the entity reference '&\(name);' is not allowed in XLIFF (entities are never resolved)", at: position)
            case cxml_doctype, cxml_element_declaration:
                fail("a DTD is not allowed in XLIFF", at: position)
            case cxml_notation_declaration:
                fail("notation declarations are not allowed in XLIFF", at: position)
            default:
                fail("entity declarations are not allowed in XLIFF", at: position)
            }
        }
    }
}
