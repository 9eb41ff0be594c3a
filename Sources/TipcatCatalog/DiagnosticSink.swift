@_spi(Tipcat) import TipcatCore
import TipcatJSON

/// Collects diagnostics while one file is decoded. Local to a single loading step; never shared.
final class DiagnosticSink {
    private(set) var diagnostics: [Diagnostic] = []
    /// Where `duplicate-key` was reported, so `reportDuplicateKeys(in:what:)` reports each duplicate once.
    fileprivate var duplicateKeyLocations = Set<SourceLocation>()

    func add(_ diagnostic: Diagnostic) {
        if diagnostic.ruleID == DiagnosticRule.duplicateKey.id, let location = diagnostic.location { duplicateKeyLocations.insert(location) }
        diagnostics.append(diagnostic)
    }

    func add(contentsOf more: [Diagnostic]) {
        for diagnostic in more { add(diagnostic) }
    }

    /// Adds a finding of `rule` at the rule's severity.
    func report(_ message: String, rule: DiagnosticRule, at location: SourceLocation?, notes: [Diagnostic.Note] = []) {
        add(Diagnostic(message, rule: rule, at: location, notes: notes))
    }

    /// Reports every duplicate key of any object in `document` that the decoder did not already report (with a
    /// more precise subject): `duplicate key 'x' in an object of tips/A.json`, with a note at the first one.
    /// `what` (the file's name for messages) is only worked out when there is a duplicate.
    func reportDuplicateKeys(in document: JSONDocument, what: @autoclosure () -> String) {
        reportDuplicateKeys(document.duplicateKeys(), in: document, what: what())
    }

    /// `reportDuplicateKeys(in:what:)` for the given duplicates of `document` (in source order).
    func reportDuplicateKeys(_ duplicates: [(first: JSONMember, duplicate: JSONMember)], in document: JSONDocument, what: @autoclosure () -> String) {
        for (first, duplicate) in duplicates {
            let location = document.location(ofByte: duplicate.keyOffset)
            guard !duplicateKeyLocations.contains(location) else { continue }
            add(.duplicateKey(duplicate.key, in: "an object of \(what())", at: location, first: document.location(ofByte: first.keyOffset)))
        }
    }
}

extension DiagnosticSink {
    /// `reportDuplicateKeys(_:in:what:)` for duplicates kept by a `StringsDecodingCache`.
    func reportDuplicateKeys(_ duplicates: [StringsDecoding.Duplicate], what: String) {
        for duplicate in duplicates where !duplicateKeyLocations.contains(duplicate.location) {
            add(.duplicateKey(duplicate.key, in: "an object of \(what)", at: duplicate.location, first: duplicate.first))
        }
    }
}

extension JSONValue {
    /// "a string", "a number"… for messages like "'title' must be a string, found a number".
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONDocument {
    /// Whether the string `node` is written in the file without escapes, so the file holds its text byte for
    /// byte between the quotes (a scan to the closing quote; false for anything else).
    func isVerbatimString(_ node: JSONNode) -> Bool {
        guard case .string = node.value else { return false }
        return source.bytes.withUnsafeBufferPointer { bytes in
            guard node.offset >= 0, node.offset < bytes.count, bytes[node.offset] == UInt8(ascii: "\"") else { return false }
            // Eight bytes at a time up to the word with the closing quote (or an escape: a control byte cannot be
            // in a parsed string), then byte by byte: every translation of a String Catalog is checked this way.
            var index = WordBytes.plainPrefix(bytes, from: node.offset + 1, mayMatch: WordBytes.hasJSONSpecial)
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"): return false
                default: index += 1
                }
            }
            return false
        }
    }
}

/// A JSON object being decoded: typed accessors that report missing keys, wrong types and unknown keys.
struct ObjectReader {
    /// The document and sink are borrowed, not retained: a reader lives only inside a call that holds both, and
    /// readers are made twice per translation (hundreds of thousands in a large String Catalog), on every core.
    unowned(unsafe) let document: JSONDocument
    /// Where the object starts in the document.
    let offset: Int
    let object: JSONObject
    /// What the object is, for messages: "tip", "event 'opened-map'", "catalog.json".
    var subject: String { subjectPrefix.description + subjectBase }
    /// `subject` is these two: a fixed prefix (often empty) and the rest, joined only for a message (an object
    /// read for every translation of a String Catalog then costs no new string).
    private let subjectPrefix: StaticString
    private let subjectBase: String
    unowned(unsafe) let sink: DiagnosticSink

    /// Reads `node` as an object, or reports what it is instead; `subject` is `prefix` followed by `subject`.
    init?(_ node: JSONNode, in document: JSONDocument, subject: String, prefix: StaticString = "", sink: DiagnosticSink) {
        guard case .object(let object) = node.value else {
            sink.add(.notAnObject(prefix.description + subject, found: node.value.kindDescription, at: document.location(of: node)))
            return nil
        }
        self.document = document
        self.offset = node.offset
        self.object = object
        self.subjectPrefix = prefix
        self.subjectBase = subject
        self.sink = sink
    }

    var location: SourceLocation { document.location(ofByte: offset) }

    func location(of node: JSONNode) -> SourceLocation { document.location(of: node) }

    /// Reports keys written twice in an object whose keys are names (String Catalog keys, locales, parameters).
    func checkDuplicateKeys() {
        // The parser found every duplicate of the file: with none, no object of it needs a second look.
        guard !document.duplicateKeys().isEmpty else { return }
        for (first, duplicate) in object.duplicateKeys() {
            sink.add(.duplicateKey(duplicate.key, in: subject, at: document.location(ofByte: duplicate.keyOffset),
                                   first: document.location(ofByte: first.keyOffset)))
        }
    }

    /// Reports keys that are not in `allowed` (with a did-you-mean) and keys written twice.
    /// `$schema` is always allowed.
    func checkKeys(_ allowed: [String]) {
        let members = object.members
        // The parser found every duplicate of the file: only a file with one needs the scan below.
        let fileHasDuplicates = !document.duplicateKeys().isEmpty
        for (index, member) in members.enumerated() {
            var keyLocation: SourceLocation { document.location(ofByte: member.keyOffset) }
            // Objects in catalog files have a handful of keys: a linear scan beats hashing every key.
            if fileHasDuplicates, let first = members[..<index].first(where: { $0.key == member.key }) {
                sink.add(.duplicateKey(member.key, in: subject, at: keyLocation, first: document.location(ofByte: first.keyOffset)))
                continue
            }
            if member.key == "$schema" {
                if case .string = member.value.value {} else {
                    sink.add(.schemaNotAString(at: location(of: member.value)))
                }
                continue
            }
            if !allowed.contains(member.key) {
                sink.add(.unknownKey(member.key, in: subject, allowed: allowed, at: keyLocation))
            }
        }
    }

    func missing(_ key: String) {
        sink.add(.missingKey(key, in: subject, at: location))
    }

    func wrongType(_ key: String, expected: String, found node: JSONNode) {
        sink.add(.wrongType(key, in: subject, expected: expected, found: node.value.kindDescription, at: location(of: node)))
    }

    /// The member's node, reporting a missing required key.
    func node(_ key: String, required: Bool) -> JSONNode? {
        guard let node = object[key] else {
            if required { missing(key) }
            return nil
        }
        return node
    }

    func string(_ key: String, required: Bool = false) -> (value: String, node: JSONNode)? {
        guard let node = node(key, required: required) else { return nil }
        guard case .string(let value) = node.value else {
            wrongType(key, expected: "a string", found: node)
            return nil
        }
        return (value, node)
    }

    func bool(_ key: String, required: Bool = false) -> Bool? {
        guard let node = node(key, required: required) else { return nil }
        guard case .bool(let value) = node.value else {
            wrongType(key, expected: "true or false", found: node)
            return nil
        }
        return value
    }

    /// An integer within `range`; fractions, exponents and out-of-range values are reported.
    func int(_ key: String, required: Bool = false, in range: ClosedRange<Int> = Int.min...Int.max) -> Int? {
        guard let node = node(key, required: required) else { return nil }
        guard case .number(let number) = node.value else {
            wrongType(key, expected: "an integer", found: node)
            return nil
        }
        guard let value = number.intValue else {
            sink.add(.notAWholeNumber(key, in: subject, found: number.text, at: location(of: node)))
            return nil
        }
        guard range.contains(value) else {
            let bound = range.lowerBound == Int.min ? "at most \(range.upperBound)" : range.upperBound == Int.max
                ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
            sink.add(.outOfRange(key, in: subject, bound: bound, found: value, at: location(of: node)))
            return nil
        }
        return value
    }

    func array(_ key: String, required: Bool = false) -> (elements: [JSONNode], node: JSONNode)? {
        guard let node = node(key, required: required) else { return nil }
        guard case .array(let elements) = node.value else {
            wrongType(key, expected: "an array", found: node)
            return nil
        }
        return (elements, node)
    }

    func objectNode(_ key: String, required: Bool = false) -> (object: JSONObject, node: JSONNode)? {
        guard let node = node(key, required: required) else { return nil }
        guard case .object(let object) = node.value else {
            wrongType(key, expected: "an object", found: node)
            return nil
        }
        return (object, node)
    }

    /// One of a fixed set of strings, with a did-you-mean.
    func choice<T>(_ key: String, _ choices: [(String, T)], required: Bool = false) -> T? {
        guard let (text, node) = string(key, required: required) else { return nil }
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let names = choices.map(\.0)
        sink.add(.invalidChoice(key, in: subject, choices: names, found: text, at: location(of: node)))
        return nil
    }

    /// A duration: seconds as a number, or text such as `5m`, `12h`, `3d`.
    func duration(_ key: String, required: Bool = false) -> TimeSpan? {
        guard let node = node(key, required: required) else { return nil }
        return ObjectReader.duration(node, key: key, subject: subject, document: document, sink: sink)
    }

    /// A duration at most `CatalogLimits.longestDuration`; longer ones are reported as `out-of-range`.
    static func duration(_ node: JSONNode, key: String, subject: String, document: JSONDocument, sink: DiagnosticSink) -> TimeSpan? {
        func bounded(_ span: TimeSpan) -> TimeSpan? {
            guard span <= CatalogLimits.longestDuration else {
                sink.add(.durationOutOfRange(key, in: subject, found: span, at: document.location(of: node)))
                return nil
            }
            return span
        }
        switch node.value {
        case .number(let number) where number.doubleValue >= 0 && number.doubleValue.isFinite:
            return bounded(TimeSpan(seconds: number.doubleValue))
        case .string(let text):
            if let span = TimeSpan(text) { return bounded(span) }
            sink.add(.invalidDuration(key, in: subject, text: text, at: document.location(of: node)))
            return nil
        default:
            sink.add(.notADuration(key, in: subject, found: node.value.kindDescription, at: document.location(of: node)))
            return nil
        }
    }
}
