public import TipcatCatalog
import TipcatCore
import TipcatJSON
import Dispatch
import Foundation
import TipcatLocalization
public import TipcatPlugin

/// Writes `tipcat.plugin/1` requests. The catalog part is encoded once and shared by every plugin of a run
/// (only the envelope — kind, plugin name, options — differs), straight into bytes.
public struct PluginRequestEncoder: Sendable {
    /// The catalog as the `catalog` member's JSON, in pieces (a head, the tips in chunks, a tail) written to a plugin
    /// one after the other while later chunks are still being encoded; tens of megabytes are never copied into one
    /// buffer, and a plugin starts reading before the last tip is encoded.
    public let catalog: EncodedCatalog

    /// The tipcat version reported to plugins.
    public let tipcatVersion: String

    /// Starts encoding `catalog` on every core, in the background.
    public init(catalog: Catalog, tipcatVersion: String) {
        self.catalog = EncodedCatalog(PluginRequestEncoder.encode(catalog))
        self.tipcatVersion = tipcatVersion
    }

    /// A whole request around the shared catalog, as pieces to write in order (waiting for each as it is read).
    public func requestPieces(
        kind: RequestKind, plugin: String, options: [String: PluginJSON], publish: PublishEvent? = nil
    ) -> RequestPieces {
        var writer = JSONBytes()
        writer.objectValue { object in
            object.key("protocol")
            object.string(PluginProtocol.version)
            object.key("kind")
            object.string(kind.rawValue)
            object.key("plugin")
            object.string(plugin)
            object.key("tipcatVersion")
            object.string(tipcatVersion)
            object.key("options")
            PluginRequestEncoder.write(.object(options), into: &object)
            if let publish {
                object.key("publish")
                PluginRequestEncoder.write(publish, into: &object)
            }
            object.key("catalog")
            object.rawValue { _ in }  // the pieces go here
        }
        writer.removeLastByte()  // the envelope's closing brace comes after the catalog
        return RequestPieces(prefix: writer.bytes, catalog: catalog, suffix: Array("}\n".utf8))
    }

    /// The whole request in one buffer (in-process generators and tests).
    public func request(
        kind: RequestKind, plugin: String, options: [String: PluginJSON], publish: PublishEvent? = nil
    ) -> [UInt8] {
        let pieces = requestPieces(kind: kind, plugin: plugin, options: options, publish: publish)
        var bytes: [UInt8] = []
        var index = 0
        while let piece = pieces.piece(index) {
            bytes += piece
            index += 1
        }
        return bytes
    }

    /// A `describe` request (no catalog).
    public static func describeRequest(plugin: String, tipcatVersion: String) -> [UInt8] {
        var writer = JSONBytes()
        writer.objectValue { object in
            object.key("protocol")
            object.string(PluginProtocol.version)
            object.key("kind")
            object.string(RequestKind.describe.rawValue)
            object.key("plugin")
            object.string(plugin)
            object.key("tipcatVersion")
            object.string(tipcatVersion)
        }
        writer.appendStatic("\n")
        return writer.bytes
    }

    // MARK: - Catalog

    static let tipsPerChunk = 128

    /// Where each group, event and parameter is declared, as a JSON pointer (`/groups/2`): the declaration files
    /// are read again (they are small) and each element matched by the location the loader recorded (the element's
    /// or its id's), so an
    /// element the loader skipped cannot shift the others' pointers.
    static func declarationPointers(_ catalog: Catalog) -> [SourceLocation?: String] {
        var pointers: [SourceLocation?: String] = [:]
        let files: [(String, String)] = [
            (CatalogLoader.FileName.groups, "groups"), (CatalogLoader.FileName.events, "events"),
            (CatalogLoader.FileName.parameters, "parameters"),
        ]
        let root = catalog.root.hasSuffix("/") ? catalog.root : catalog.root + "/"
        for (name, key) in files {
            let path = root + name
            guard let bytes = try? DiskFileSystem().read(path),
                  let document = try? JSONDocument.parse(SourceFile(path: path, bytes: bytes)),
                  case .object(let object) = document.root.value, let list = object[key], case .array(let elements) = list.value
            else { continue }
            for (index, element) in elements.enumerated() {
                // The loader records an element's location, or its id's or name's.
                pointers[document.location(of: element)] = "/\(key)/\(index)"
                if case .object(let members) = element.value {
                    for name in ["id", "name"] {
                        if let node = members[name] { pointers[document.location(of: node)] = "/\(key)/\(index)" }
                    }
                }
            }
        }
        return pointers
    }

    /// The catalog's head and tail (everything but the tips) and a function that encodes one chunk of tips.
    static func encode(_ catalog: Catalog) -> (head: [UInt8], tail: [UInt8], chunks: Int, chunk: @Sendable (Int) -> [UInt8]) {
        let root = catalog.root
        let stringsFile = catalog.localizations.file.map { relative($0, to: root) } ?? "Localizable.xcstrings"
        // Tips are encoded in chunks, each a comma-separated run of tip objects.
        let tips = catalog.tips
        let chunkCount = (tips.count + tipsPerChunk - 1) / tipsPerChunk
        let chunk: @Sendable (Int) -> [UInt8] = { index in
            let range = (index * tipsPerChunk)..<min(tips.count, (index + 1) * tipsPerChunk)
            var chunk = JSONBytes(capacity: range.count * 12_288)  // ~9 KB a tip at 12 locales: no regrowth
            let run = RunContext(root: root, stringsFile: stringsFile)
            let table = catalog.localizations
            for tip in range {
                writeTip(tips[tip], table: table, run: run, into: &chunk)
            }
            return chunk.bytes
        }
        let declarationPointers = PluginRequestEncoder.declarationPointers(catalog)
        var tipsOffset = 0
        var writer = JSONBytes(capacity: 1 << 16)
        writer.objectValue { object in
            object.key("root")
            object.string(root)
            object.key("name")
            object.string(catalog.settings.name)
            object.key("sourceLanguage")
            object.string(catalog.settings.sourceLanguage.identifier)
            object.key("supportedLocales")
            object.arrayValue { array in
                for locale in catalog.settings.supportedLocales { array.string(locale.identifier) }
            }
            object.key("displayFrequency")
            object.string(catalog.settings.displayFrequency.description)
            object.key("enabled")
            object.bool(catalog.settings.enabled)
            object.key("tips")
            object.rawValue { raw in tipsOffset = raw.count }  // the tips go here, in chunks
            object.key("groups")
            object.arrayValue { array in
                for group in catalog.groups {
                    array.objectValue { object in
                        object.key("id")
                        object.string(group.id.rawValue)
                        object.key("priority")
                        object.string(group.priority.rawValue)
                        object.key("tips")
                        object.arrayValue { tips in
                            for tip in group.tips { tips.string(tip.rawValue) }
                        }
                        object.key("at")
                        writePlace(file: relative(group.location?.file ?? "groups.json", to: root),
                                   pointer: declarationPointers[group.location] ?? "", into: &object)
                    }
                }
            }
            object.key("events")
            object.arrayValue { array in
                for event in catalog.events {
                    array.objectValue { object in
                        object.key("id")
                        object.string(event.id.rawValue)
                        object.key("fields")
                        writeFields(event.fields, into: &object)
                        if let limit = event.donationLimit {
                            object.key("donationLimit")
                            object.objectValue { limitObject in
                                if let count = limit.maxCount {
                                    limitObject.key("maxCount")
                                    limitObject.int(count)
                                }
                                if let age = limit.maxAge {
                                    limitObject.key("maxAge")
                                    limitObject.double(age.seconds)
                                }
                            }
                        }
                        if let description = event.description {
                            object.key("description")
                            object.string(description)
                        }
                        object.key("at")
                        writePlace(file: relative(event.location?.file ?? "events.json", to: root),
                                   pointer: declarationPointers[event.location] ?? "", into: &object)
                    }
                }
            }
            object.key("parameters")
            object.arrayValue { array in
                for parameter in catalog.parameters {
                    array.objectValue { object in
                        object.key("name")
                        object.string(parameter.name.rawValue)
                        object.key("type")
                        object.string(parameter.type.description)
                        object.key("default")
                        writeValue(parameter.defaultValue, into: &object)
                        object.key("lifetime")
                        object.string(parameter.lifetime.rawValue)
                        if let description = parameter.description {
                            object.key("description")
                            object.string(description)
                        }
                        object.key("at")
                        writePlace(file: relative(parameter.location?.file ?? "parameters.json", to: root),
                                   pointer: declarationPointers[parameter.location] ?? "", into: &object)
                    }
                }
            }
        }
        return (writer.bytes(upTo: tipsOffset) + [UInt8(ascii: "[")], [UInt8(ascii: "]")] + writer.bytes(from: tipsOffset),
                chunkCount, chunk)
    }

    /// What encoding a run of tips reads for every tip: the catalog's root, the String Catalog's path, and the
    /// start of every translation's place, made once a run rather than once a text.
    struct RunContext {
        let root: String
        let stringsFile: String
        /// `{"file":"<strings file>","pointer":"/strings/` — the start of every translation's place.
        let placePrefix: [UInt8]

        init(root: String, stringsFile: String) {
            self.root = root
            self.stringsFile = stringsFile
            placePrefix = Array(("{\"file\":" + PluginRequestEncoder.jsonString(stringsFile) + ",\"pointer\":\"/strings/").utf8)
        }
    }

    private static func writeTip(_ tip: Tip, table: LocalizationTable, run: RunContext, into array: inout JSONBytes) {
        let file = relative(tip.file, to: run.root)
        array.objectValue { object in
            object.key("id")
            object.string(tip.id.rawValue)
            object.key("at")
            writePlace(file: file, pointer: "", into: &object)
            object.key("title")
            writeText(tip.title, file: file, pointer: "/title", table: table, run: run, into: &object)
            if let message = tip.message {
                object.key("message")
                writeText(message, file: file, pointer: "/message", table: table, run: run, into: &object)
            }
            if let customID = tip.customID {
                object.key("customID")
                writeText(customID, file: file, pointer: "/customID", table: table, run: run, into: &object)
            }
            if let image = tip.image {
                object.key("image")
                object.string(image)
            }
            object.key("actions")
            object.arrayValue { actions in
                for (index, action) in tip.actions.enumerated() {
                    actions.objectValue { actionObject in
                        actionObject.key("id")
                        actionObject.string(action.id)
                        actionObject.key("title")
                        writeText(action.title, file: file, pointer: "/actions/\(index)/title", table: table, run: run,
                                  into: &actionObject)
                        actionObject.key("at")
                        writePlace(file: file, pointer: "/actions/\(index)", into: &actionObject)
                    }
                }
            }
            object.key("parameters")
            writeFields(tip.parameters, into: &object)
            object.key("rules")
            object.arrayValue { rules in
                for (index, rule) in tip.rules.enumerated() {
                    rules.objectValue { ruleObject in
                        ruleObject.key("text")
                        ruleObject.string(rule.source)
                        ruleObject.key("at")
                        writePlace(file: file, pointer: "/rules/\(index)", into: &ruleObject)
                    }
                }
            }
            object.key("options")
            object.objectValue { options in
                if let count = tip.options.maxDisplayCount {
                    options.key("maxDisplayCount")
                    options.int(count)
                }
                if let duration = tip.options.maxDisplayDuration {
                    options.key("maxDisplayDuration")
                    options.double(duration.seconds)
                }
                options.key("ignoresDisplayFrequency")
                options.bool(tip.options.ignoresDisplayFrequency)
            }
            object.key("republish")
            object.string(tip.republish.rawValue)
            if let comment = tip.comment {
                object.key("comment")
                object.string(comment)
            }
            if let example = tip.example {
                object.key("example")
                writeValue(.record(example), into: &object)
            }
        }
    }

    private static func writeText(
        _ text: LocalizedText, file: String, pointer: String, table: LocalizationTable, run: RunContext,
        into object: inout JSONBytes
    ) {
        let stringsFile = run.stringsFile
        object.objectValue { textObject in
            textObject.key("key")
            textObject.string(text.key)
            textObject.key("text")
            textObject.string(text.source)
            textObject.key("at")
            writePlace(file: file, pointer: pointer, into: &textObject)
            textObject.key("translations")
            textObject.beginObject()
            defer { textObject.endObject() }
            guard let entryIndex = table.entries.index(forKey: text.key) else { return }
            // JSON object members are unordered: translations are written in the table's own order. Each is
            // written without closures, and its place as bytes (no pointer strings built): 220,000 of them in a
            // large catalog. The place's start, up to the locale, is escaped once a text. The entry and its
            // translations are read where they are, by index (a copy of either retains all it holds).
            let key = escapePointerToken(text.key)
            var placeStart = JSONBytes()
            placeStart.appendRaw(run.placePrefix)
            placeStart.appendEscaped(key)
            placeStart.appendStatic("/localizations/")
            let placeStartBytes = placeStart.bytes
            let (locales, translations) = (table.entries.values[entryIndex].translations.keys, table.entries.values[entryIndex].translations.values)
            for index in translations.indices {
                let locale = locales[index]
                textObject.key(locale.identifier)
                textObject.beginObject()
                textObject.key(literal: "text")
                textObject.string(translations[index].content.text)
                textObject.key(literal: "state")
                textObject.string(translations[index].state.rawValue)
                textObject.key(literal: "at")
                textObject.beginRawValue()
                textObject.appendRaw(placeStartBytes)
                textObject.appendEscaped(locale.identifier)
                // A whole message (nearly every translation) is told without matching its content, which copies it;
                // the other content is a plural variation.
                if translations[index].content.isMessage {
                    textObject.appendStatic("/stringUnit/value\"}")
                } else if case .plural(let argument, let forms) = translations[index].content {
                    textObject.appendStatic("/variations/plural\"}")
                    textObject.key("plural")
                    textObject.objectValue { plural in
                        plural.key("argument")
                        plural.string(argument)
                        let sorted = forms.sorted { $0.key < $1.key }
                        plural.key("forms")
                        plural.objectValue { formsObject in
                            for (category, message) in sorted {
                                formsObject.key(category)
                                formsObject.string(message.text)
                            }
                        }
                        plural.key("at")
                        plural.objectValue { places in
                            for (category, _) in sorted {
                                places.key(category)
                                writePlace(
                                    file: stringsFile,
                                    pointer: "/strings/" + key + "/localizations/" + escapePointerToken(locale.identifier)
                                        + "/variations/plural/" + escapePointerToken(category) + "/stringUnit/value",
                                    into: &places)
                            }
                        }
                    }
                }
                textObject.endObject()
            }
        }
    }

    /// `text` as a JSON string literal.
    private static func jsonString(_ text: String) -> String {
        var writer = JSONBytes()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func writeFields(_ fields: [ValueType.RecordField], into object: inout JSONBytes) {
        object.arrayValue { array in
            for field in fields {
                array.objectValue { fieldObject in
                    fieldObject.key("name")
                    fieldObject.string(field.name)
                    fieldObject.key("type")
                    fieldObject.string(field.type.description)
                }
            }
        }
    }

    private static func writePlace(file: String, pointer: String, into object: inout JSONBytes) {
        object.objectValue { place in
            place.key("file")
            place.string(file)
            place.key("pointer")
            place.string(pointer)
        }
    }

    static func writeValue(_ value: Value, into writer: inout JSONBytes) {
        write(PluginJSON(value), into: &writer)
    }

    static func write(_ json: PluginJSON, into writer: inout JSONBytes) {
        switch json {
        case .null: writer.null()
        case .bool(let flag): writer.bool(flag)
        case .number(let number): writer.double(number)
        case .string(let text): writer.string(text)
        case .array(let values):
            writer.arrayValue { array in
                for element in values { write(element, into: &array) }
            }
        case .object(let members):
            writer.objectValue { object in
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    object.key(name)
                    write(member, into: &object)
                }
            }
        }
    }

    static func write(_ event: PublishEvent, into writer: inout JSONBytes) {
        writer.objectValue { object in
            object.key("channel")
            object.string(event.channel)
            object.key("version")
            object.int(event.version)
            object.key("contentHash")
            object.string(event.contentHash)
            object.key("author")
            object.string(event.author)
            object.key("message")
            object.string(event.message)
            if let previous = event.previousVersion {
                object.key("previousVersion")
                object.int(previous)
            }
            object.key("dryRun")
            object.bool(event.dryRun)
            object.key("diff")
            object.objectValue { diff in
                diff.key("summary")
                diff.string(event.diff.summary)
                for (name, ids) in [("tipsAdded", event.diff.tipsAdded), ("tipsRemoved", event.diff.tipsRemoved),
                                    ("tipsChanged", event.diff.tipsChanged)] {
                    diff.key(name)
                    diff.arrayValue { array in
                        for id in ids { array.string(id) }
                    }
                }
            }
        }
    }
}

/// RFC 6901: `~` → `~0`, `/` → `~1`.
public func escapePointerToken(_ token: String) -> String {
    guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
    var result = ""
    for character in token {
        switch character {
        case "~": result += "~0"
        case "/": result += "~1"
        default: result.append(character)
        }
    }
    return result
}

/// `path` relative to the catalog directory `root` (`Catalog/tips/A.json` → `tips/A.json`).
func relative(_ path: String, to root: String) -> String {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
    if root == "." || root.isEmpty { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
    return path
}

/// What a child process reads, piece by piece: `piece(i)` may wait until that piece exists; nil ends the input.
public protocol RequestBody: Sendable {
    func piece(_ index: Int) -> [UInt8]?
}

extension Array: RequestBody where Element == [UInt8] {
    public func piece(_ index: Int) -> [UInt8]? { index < count ? self[index] : nil }
}

/// One plugin's request: its envelope around the shared, streamed catalog.
public struct RequestPieces: RequestBody {
    let prefix: [UInt8]
    let catalog: EncodedCatalog
    let suffix: [UInt8]

    public func piece(_ index: Int) -> [UInt8]? {
        if index == 0 { return prefix }
        if let piece = catalog.piece(index - 1) { return piece }
        return index - 1 == catalog.count ? suffix : nil
    }
}

/// The catalog's JSON as pieces — head, tip chunks separated by commas, tail — with the chunks encoded in the
/// background on every core, in order, each available as soon as it is done.
public final class EncodedCatalog: RequestBody, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var slots: [[UInt8]?]
    public let count: Int

    init(_ parts: (head: [UInt8], tail: [UInt8], chunks: Int, chunk: @Sendable (Int) -> [UInt8])) {
        // head, chunk 0, ",", chunk 1, …, chunk n-1, tail
        var slots: [[UInt8]?] = [parts.head]
        for index in 0..<parts.chunks {
            if index > 0 { slots.append([UInt8(ascii: ",")]) }
            slots.append(nil)
        }
        slots.append(parts.tail)
        self.slots = slots
        count = slots.count
        guard parts.chunks > 0 else { return }
        let chunk = parts.chunk
        let chunks = parts.chunks
        let thread = Thread { [self] in
            DispatchQueue.concurrentPerform(iterations: chunks) { index in
                let bytes = chunk(index)
                condition.lock()
                self.slots[1 + 2 * index] = bytes
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.start()
    }

    /// Piece `index`, waiting until it is encoded; nil past the end.
    public func piece(_ index: Int) -> [UInt8]? {
        guard index >= 0, index < count else { return nil }
        condition.lock()
        defer { condition.unlock() }
        while slots[index] == nil { condition.wait() }
        return slots[index]
    }

    /// Every piece, once all are encoded.
    public var allPieces: [[UInt8]] { (0..<count).compactMap { piece($0) } }
}

extension PluginJSON {
    /// A catalog value as plugins see it: dates as ISO 8601 strings, sets as arrays, records as objects.
    init(_ value: Value) {
        switch value {
        case .string(let text): self = .string(text)
        case .int(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case .date(let time): self = .string(time.iso8601)
        case .list(let values), .set(let values): self = .array(values.map { PluginJSON($0) })
        case .record(let fields): self = .object(fields.mapValues { PluginJSON($0) })
        }
    }
}
