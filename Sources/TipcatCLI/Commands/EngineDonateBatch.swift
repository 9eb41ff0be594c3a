import Foundation
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatJSON

/// `tipcat engine donate --batch FILE|-`: JSON Lines of donations, checked first, then stored in one transaction.
///
/// Each non-blank line is an object `{"event": "opened-map", "values": {"itemID": 3}, "at": "2026-01-04T18:30:00Z"}`:
/// `event` (a leading `#` is allowed) names a declared event; `values` gives every declared field, typed as
/// declared (numbers, booleans, strings, ISO 8601 strings for dates, arrays for lists and sets, objects for
/// records), and may be left out for events without fields; `at` (default: now) may not be later than now.
extension EngineCommand {
    /// One checked line.
    struct BatchDonation: Sendable {
        var event: EventID
        var values: [String: Value]
        var at: Timestamp?
    }

    /// A line checked: its donation, or what is wrong with it.
    enum CheckedLine: Sendable {
        case donation(BatchDonation)
        case finding(Diagnostic)
    }

    func donateBatch(_ engine: inout TipEngineSession, _ catalog: Catalog, path: String) throws {
        let bytes: [UInt8]
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError.failure("cannot read the donations file '\(path)'")
            }
            bytes = [UInt8](data)
        }
        let name = path == "-" ? "<stdin>" : path
        let events = Dictionary(catalog.events.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        let now = engine.now
        // Lines are found first, then checked on every core (each line on its own), in file order.
        var lines: [(number: Int, range: Range<Int>)] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var last = end
            if last > start, bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
            if !bytes[start..<last].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                lines.append((lineNumber, start..<last))
            }
            start = end + 1
        }
        let found = lines
        let checked = concurrentChunks(count: found.count, chunkSize: 2048) { chunk -> [CheckedLine] in
            found[chunk].map { number, range in
                let line = Array(bytes[range])
                do throws(BatchLineError) {
                    return .donation(try Self.batchDonation(line, events: events, now: now))
                } catch {
                    let column = String(decoding: line.prefix(max(0, error.offset)), as: UTF8.self).count + 1
                    return .finding(Diagnostic(
                        error.message, rule: .donateBatchLine, at: SourceLocation(file: name, line: number, column: column)))
                }
            }
        }
        var donations: [BatchDonation] = []
        donations.reserveCapacity(lines.count)
        var findings: [Diagnostic] = []
        for result in checked.joined() {
            switch result {
            case .donation(let donation): donations.append(donation)
            case .finding(let finding): findings.append(finding)
            }
        }
        if !findings.isEmpty {
            context.stderr.write(DiagnosticFormat.text.render(findings))
            throw CommandError.failure(
                "\(name): \(findings.count) bad \(findings.count == 1 ? "line" : "lines"); nothing from the batch was stored")
        }
        guard let store = engine.stateStore as? SQLiteTipStateStore else {
            throw CommandError.failure("--batch needs the SQLite state database")
        }
        // In time order (stable): the engine's donation logs append instead of inserting into their middle.
        let ordered = donations.enumerated().sorted { ($0.element.at ?? now, $0.offset) < ($1.element.at ?? now, $1.offset) }.map(\.element)
        do {
            try store.beginBatch()
            for donation in ordered { try engine.donate(donation.event, donation.values, at: donation.at) }
            for event in Set(donations.map(\.event.rawValue)).sorted() { try engine.pruneStoredDonations(of: EventID(event)) }
            try store.commitBatch()
        } catch {
            try? store.rollbackBatch()
            throw error
        }
        context.stdout.line("donated \(donations.count) \(donations.count == 1 ? "event" : "events") from \(name)")
    }

    struct BatchLineError: Error {
        var message: String
        /// The byte in the line where the problem is.
        var offset: Int
        init(_ message: String, at offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    static func batchDonation(_ line: [UInt8], events: [String: EventDeclaration], now: Timestamp) throws(BatchLineError) -> BatchDonation {
        let root: JSONNode
        do {
            root = try JSONDocument.parse(SourceFile(path: "line", bytes: line)).root
        } catch {
            throw BatchLineError(error.message, at: error.offset)
        }
        guard case .object(let object) = root.value else {
            throw BatchLineError(#"expected an object such as {"event": "opened-map", "values": {…}, "at": "2026-01-04T18:30:00Z"}"#, at: root.offset)
        }
        for member in object.members where !["event", "values", "at"].contains(member.key) {
            throw BatchLineError("unknown member '\(member.key)'; a donation has event, values and at", at: member.keyOffset)
        }
        guard let eventNode = object["event"] else { throw BatchLineError("missing \"event\"", at: root.offset) }
        guard case .string(let given) = eventNode.value else { throw BatchLineError("\"event\" is a string (an event id)", at: eventNode.offset) }
        let eventName = given.hasPrefix("#") ? String(given.dropFirst()) : given
        guard let event = events[eventName] else {
            throw BatchLineError("unknown event '\(eventName)'" + Suggestions.didYouMean(eventName, in: events.keys.sorted()), at: eventNode.offset)
        }
        var values: [String: Value] = [:]
        if let valuesNode = object["values"] {
            guard case .object(let fields) = valuesNode.value else {
                throw BatchLineError("\"values\" is an object of field values", at: valuesNode.offset)
            }
            for member in fields.members {
                guard let type = event.field(member.key) else {
                    let names = event.fields.map(\.name)
                    throw BatchLineError("#\(eventName) has no field '\(member.key)'" + (names.isEmpty ? "; it has no fields" : Suggestions.didYouMean(member.key, in: names)), at: member.keyOffset)
                }
                values[member.key] = try value(member.value, as: type, what: "field '\(member.key)' of #\(eventName)")
            }
        }
        for field in event.fields where values[field.name] == nil {
            throw BatchLineError("#\(eventName) needs a value for its field '\(field.name)' (\(field.type))", at: object["values"]?.offset ?? root.offset)
        }
        var at: Timestamp?
        if let atNode = object["at"] {
            guard case .string(let text) = atNode.value, let time = Timestamp(iso8601: text) else {
                throw BatchLineError("\"at\" is an ISO 8601 time such as 2026-01-04T18:30:00Z", at: atNode.offset)
            }
            guard time <= now else { throw BatchLineError("\"at\" is \(time), later than now (\(now))", at: atNode.offset) }
            at = time
        }
        return BatchDonation(event: event.id, values: values, at: at)
    }

    /// A JSON value as a value of `type`.
    static func value(_ node: JSONNode, as type: ValueType, what: String, depth: Int = 0) throws(BatchLineError) -> Value {
        func mismatch() -> BatchLineError { BatchLineError("\(what) is \(type)", at: node.offset) }
        switch (type, node.value) {
        case (.string, .string(let text)): return .string(text)
        case (.int, .number(let number)):
            guard number.isInteger, let value = number.intValue else { throw mismatch() }
            return .int(value)
        case (.double, .number(let number)): return .double(number.doubleValue)
        case (.bool, .bool(let value)): return .bool(value)
        case (.date, .string(let text)):
            guard let time = Timestamp(iso8601: text) else { throw mismatch() }
            return .date(time)
        case (.list(let element), .array(let nodes)), (.set(let element), .array(let nodes)):
            guard depth < 32 else { throw mismatch() }
            var values: [Value] = []
            for item in nodes { values.append(try value(item, as: element, what: what, depth: depth + 1)) }
            if case .set = type { return .set(values) }
            return .list(values)
        case (.record(let fields), .object(let object)):
            guard depth < 32 else { throw mismatch() }
            var values: [String: Value] = [:]
            for member in object.members {
                guard let field = fields.first(where: { $0.name == member.key }) else {
                    throw BatchLineError("\(what) has no field '\(member.key)'", at: member.keyOffset)
                }
                values[member.key] = try value(member.value, as: field.type, what: what, depth: depth + 1)
            }
            return .record(values)
        default:
            throw mismatch()
        }
    }
}
