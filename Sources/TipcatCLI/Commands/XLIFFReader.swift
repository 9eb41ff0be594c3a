import Foundation
import TipcatCatalog
#if canImport(FoundationXML)
import FoundationXML
#endif

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

/// Reads XLIFF 1.2 with `XMLParser`, never resolving DTDs or entities: a document with a DOCTYPE (or any entity
/// or notation declaration) is refused before and while parsing, as are invalid UTF-8, nesting deeper than
/// `maxDepth`, and malformed XML.
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
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        let delegate = Delegate(path: path)
        parser.delegate = delegate
        let parsed = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard parsed else {
            let reason = (parser.parserError as? NSError).map { "XML parser error \($0.code)" } ?? "unknown error"
            throw XLIFFError(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: "malformed XML: \(reason)")
        }
        guard delegate.sawRoot else {
            throw XLIFFError(path: path, line: 1, column: 1, message: "not an XLIFF document (no <xliff> element)")
        }
        return delegate.file
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

    private final class Delegate: NSObject, XMLParserDelegate {
        let path: String
        var file: XLIFFFile
        var failure: XLIFFError?
        var depth = 0
        var sawRoot = false
        /// The unit being read, with which of its children's text is being collected.
        var unit: XLIFFUnit?
        var unitLine = 0
        var collecting: String?
        var text = ""
        var source: String?
        var target: String?
        var state: String?
        var note: String?

        init(path: String) {
            self.path = path
            self.file = XLIFFFile(path: path)
        }

        private func fail(_ parser: XMLParser, _ message: String) {
            guard failure == nil else { return }
            failure = XLIFFError(path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: message)
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            depth += 1
            guard depth <= XLIFFReader.maxDepth else {
                fail(parser, "elements are nested deeper than \(XLIFFReader.maxDepth) levels")
                return
            }
            if depth == 1 {
                guard elementName == "xliff" else {
                    fail(parser, "not an XLIFF document (the root element is <\(elementName)>, not <xliff>)")
                    return
                }
                sawRoot = true
                if let version = attributes["version"], version != "1.2" {
                    fail(parser, "XLIFF version \(version) is not supported (only 1.2)")
                }
                return
            }
            switch elementName {
            case "file":
                file.fileCount += 1
                if file.fileCount == 1 {
                    (file.fileLine, file.fileColumn) = (max(parser.lineNumber, 1), max(parser.columnNumber, 1))
                    file.original = attributes["original"]
                    file.sourceLanguage = attributes["source-language"]
                    file.targetLanguage = attributes["target-language"]
                }
            case "trans-unit":
                guard let id = attributes["id"] else {
                    fail(parser, "a <trans-unit> has no id")
                    return
                }
                let (key, path) = XLIFFUnit.split(id: id)
                unit = XLIFFUnit(key: key, path: path, source: "")
                unitLine = parser.lineNumber
                (source, target, state, note) = (nil, nil, nil, nil)
            case "source", "target", "note":
                guard unit != nil, collecting == nil else {
                    if collecting != nil { fail(parser, "<\(elementName)> inside <\(collecting ?? "")> is not supported") }
                    return
                }
                collecting = elementName
                text = ""
                if elementName == "target" { state = attributes["state"] }
            default:
                if collecting != nil {
                    fail(parser, "<\(elementName)> inside <\(collecting ?? "")> is not supported (inline markup)")
                }
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if let element = collecting, element == elementName {
                switch element {
                case "source": source = text
                case "target": target = text
                default: note = text
                }
                collecting = nil
                return
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
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if collecting != nil { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if collecting != nil { text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            fail(parser, "entity declarations are not allowed in XLIFF")
        }

        func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
            fail(parser, "external entities are not allowed in XLIFF")
        }

        func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
            fail(parser, "a DTD is not allowed in XLIFF")
        }

        func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
                    notationName: String?) {
            fail(parser, "entity declarations are not allowed in XLIFF")
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            fail(parser, "the entity reference '&\(name);' is not allowed in XLIFF (entities are never resolved)")
            return nil
        }
    }
}
