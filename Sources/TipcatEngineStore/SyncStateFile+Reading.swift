import TipcatCatalog
public import TipcatCore
import TipcatEngine
import TipcatJSON

/// Why a state file cannot be read, and where.
public struct SyncStateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `file:line:col: message`.
    public var description: String { "\(location): \(message)" }
}

extension SyncStateFile {
    /// Reads a state file. Anything that is not exactly a format this tipcat reads — not JSON, truncated, a
    /// newer format, a missing, extra, duplicate or mistyped member, an invalid device id — throws an error
    /// located in the file.
    public init(bytes: [UInt8], path: String) throws(SyncStateFileError) {
        let source = SourceFile(path: path, bytes: bytes)
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(source, maxDepth: 256)
        } catch {
            throw SyncStateFileError("not a state file: \(error.message)", at: source.location(ofByte: error.offset))
        }
        if let (first, duplicate) = document.duplicateKeys().first {
            let firstAt = document.location(ofKey: first)
            throw SyncStateFileError(
                "duplicate member '\(duplicate.key)' (first at line \(firstAt.line), column \(firstAt.column))",
                at: document.location(ofKey: duplicate))
        }
        var reader = StateReader(document: document)
        self = try reader.file()
    }
}

/// Reads the members of a state document, failing at the first problem with its location.
private struct StateReader {
    let document: JSONDocument

    func fail(_ node: JSONNode, _ message: String) -> SyncStateFileError {
        SyncStateFileError(message, at: document.location(of: node))
    }

    /// The object's members by key, with only `required` and `optional` keys allowed.
    func members(_ node: JSONNode, _ what: String, required: [String], optional: [String] = []) throws(SyncStateFileError) -> [String: JSONNode] {
        guard case .object(let object) = node.value else { throw fail(node, "\(what) must be an object") }
        var result: [String: JSONNode] = [:]
        for member in object.members {
            guard required.contains(member.key) || optional.contains(member.key) else {
                throw SyncStateFileError("unknown member '\(member.key)' in \(what)", at: document.location(ofKey: member))
            }
            result[member.key] = member.value
        }
        for key in required where result[key] == nil {
            throw fail(node, "\(what) has no '\(key)'")
        }
        return result
    }

    func object(_ node: JSONNode, _ what: String) throws(SyncStateFileError) -> [JSONMember] {
        guard case .object(let object) = node.value else { throw fail(node, "\(what) must be an object") }
        return object.members
    }

    func string(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> String {
        guard let node else { throw fail(parent, "\(what) is missing") }
        guard case .string(let text) = node.value else { throw fail(node, "\(what) must be a string") }
        return text
    }

    func device(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> String {
        let text = try string(node, what, in: parent)
        guard SyncStateFile.isValidDeviceID(text) else {
            throw fail(node ?? parent, "\(what) '\(text)' is not a device id (1 to 64 letters, digits, '.', '_' or '-')")
        }
        return text
    }

    func integer(_ node: JSONNode?, _ what: String, in parent: JSONNode, minimum: Int = 0) throws(SyncStateFileError) -> Int {
        guard let node else { throw fail(parent, "\(what) is missing") }
        guard case .number(let number) = node.value, number.isInteger, let value = number.intValue else {
            throw fail(node, "\(what) must be an integer")
        }
        guard value >= minimum else { throw fail(node, "\(what) must be at least \(minimum), not \(value)") }
        return value
    }

    func number(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> Double {
        guard let node else { throw fail(parent, "\(what) is missing") }
        guard case .number(let number) = node.value, number.doubleValue.isFinite else {
            throw fail(node, "\(what) must be a finite number")
        }
        return number.doubleValue
    }

    func time(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> Timestamp {
        Timestamp(secondsSince1970: try number(node, what, in: parent))
    }

    func optionalTime(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> Timestamp? {
        guard let node else { return nil }
        return try time(node, what, in: parent)
    }

    func hybridTime(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> HybridTime {
        guard let node else { throw fail(parent, "\(what) is missing") }
        let fields = try members(node, what, required: ["ms", "counter"])
        return HybridTime(milliseconds: Int64(try integer(fields["ms"], "\(what).ms", in: node)),
                          counter: Int64(try integer(fields["counter"], "\(what).counter", in: node)))
    }

    func stamp(_ node: JSONNode?, _ what: String, in parent: JSONNode) throws(SyncStateFileError) -> HLCStamp {
        guard let node else { throw fail(parent, "\(what) is missing") }
        let fields = try members(node, what, required: ["ms", "counter", "device"])
        return HLCStamp(
            time: HybridTime(milliseconds: Int64(try integer(fields["ms"], "\(what).ms", in: node)),
                             counter: Int64(try integer(fields["counter"], "\(what).counter", in: node))),
            device: try device(fields["device"], "\(what).device", in: node))
    }

    mutating func file() throws(SyncStateFileError) -> SyncStateFile {
        let root = document.root
        guard case .object(let rootObject) = root.value else { throw fail(root, "not a state file: expected a JSON object") }
        // The format first: a newer file is refused before its other members are judged.
        guard let formatNode = rootObject["format"] else { throw fail(root, "not a state file: no 'format' member") }
        let format = try integer(formatNode, "format", in: root, minimum: 1)
        guard format <= SyncStateFile.formatVersion else {
            throw fail(formatNode, "state format \(format) is newer than this tipcat reads (\(SyncStateFile.formatVersion)); upgrade tipcat")
        }
        let fields = try members(
            root, "the state", required: ["format", "kind", "device", "clock", "parameters", "tips", "deleted", "donations"],
            optional: ["lastNewTipShown"])
        let kind = try string(fields["kind"], "kind", in: root)
        guard kind == SyncStateFile.kind, let kindNode = fields["kind"] else {
            throw fail(fields["kind"] ?? root, "not a state file: kind is '\(kind)', not '\(SyncStateFile.kind)'")
        }
        _ = kindNode
        let writer = try device(fields["device"], "device", in: root)
        var state = SyncState()
        state.clock = try hybridTime(fields["clock"], "clock", in: root)
        state.lastNewTipShown = try optionalTime(fields["lastNewTipShown"], "lastNewTipShown", in: root)

        if let node = fields["parameters"] {
            for member in try object(node, "parameters") {
                let what = "parameter '\(member.key)'"
                let entry = try members(member.value, what, required: ["value", "stamp"])
                guard let valueNode = entry["value"] else { throw fail(member.value, "\(what) has no value") }
                state.parameters[ParameterName(member.key)] = SyncState.StampedValue(
                    value: try value(valueNode, depth: 0), stamp: try stamp(entry["stamp"], "\(what).stamp", in: member.value))
            }
        }
        if let node = fields["tips"] {
            for member in try object(node, "tips") {
                state.tips[TipInstanceID(member.key)] = try tip(member.value, "tip '\(member.key)'")
            }
        }
        if let node = fields["deleted"] {
            for member in try object(node, "deleted") {
                let what = "the deletion of '\(member.key)'"
                let entry = try members(member.value, what, required: ["at", "device", "seq"])
                state.deletions[EventID(member.key)] = SyncState.DonationKey(
                    timestamp: try time(entry["at"], "\(what): at", in: member.value),
                    id: SyncState.DonationID(device: try device(entry["device"], "\(what): device", in: member.value),
                                             sequence: Int64(try integer(entry["seq"], "\(what): seq", in: member.value))))
            }
        }
        if let node = fields["donations"] {
            guard case .array(let elements) = node.value else { throw fail(node, "donations must be an array") }
            state.donations.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let donation = try donation(element, number: index + 1)
                guard state.donations[donation.id] == nil else {
                    throw fail(element, "donation \(index + 1) repeats the id \(donation.id.device):\(donation.id.sequence)")
                }
                state.donations[donation.id] = donation
            }
        }
        return SyncStateFile(device: writer, state: state)
    }

    /// The last device id found valid (a file's donations repeat a few).
    var validDevice = ""
    /// Decoded `values` objects by their JSON (donations repeat a few), shared between donations.
    var records: [JSONValue: [String: Value]] = [:]

    /// One donation. Thousands per file: members are matched by a switch and messages built only on failure.
    mutating func donation(_ element: JSONNode, number: Int) throws(SyncStateFileError) -> SyncState.Donation {
        guard case .object(let object) = element.value else { throw fail(element, "donation \(number) must be an object") }
        var event: String?
        var at: Double?
        var owner: String?
        var sequence: Int?
        var values: [String: Value]?
        for member in object.members {
            let value = member.value
            switch member.key {
            case "event":
                guard case .string(let text) = value.value else { throw fail(value, "donation \(number): event must be a string") }
                event = text
            case "at":
                guard case .number(let number) = value.value, number.doubleValue.isFinite else {
                    throw fail(value, "donation \(number): at must be a finite number")
                }
                at = number.doubleValue
            case "device":
                guard case .string(let text) = value.value else { throw fail(value, "donation \(number): device must be a string") }
                if text != validDevice {
                    guard SyncStateFile.isValidDeviceID(text) else {
                        throw fail(value, "donation \(number): device '\(text)' is not a device id (1 to 64 letters, digits, '.', '_' or '-')")
                    }
                    validDevice = text
                }
                owner = text
            case "seq":
                guard case .number(let number) = value.value, number.isInteger, let integer = number.intValue, integer >= 0 else {
                    throw fail(value, "donation \(number): seq must be an integer of at least 0")
                }
                sequence = integer
            case "values":
                if let known = records[value.value] {
                    values = known
                } else {
                    let record = try record(value, depth: 0)
                    if records.count < 4096 { records[value.value] = record }
                    values = record
                }
            default:
                throw SyncStateFileError("unknown member '\(member.key)' in donation \(number)", at: document.location(ofKey: member))
            }
        }
        guard let event, let at, let owner, let sequence, let values else {
            let missing = [("event", event == nil), ("at", at == nil), ("device", owner == nil), ("seq", sequence == nil), ("values", values == nil)]
                .first { $0.1 }?.0 ?? "event"
            throw fail(element, "donation \(number) has no '\(missing)'")
        }
        return SyncState.Donation(id: SyncState.DonationID(device: owner, sequence: Int64(sequence)), event: EventID(event),
                                  timestamp: Timestamp(secondsSince1970: at), values: values)
    }

    func tip(_ node: JSONNode, _ what: String) throws(SyncStateFileError) -> SyncState.Tip {
        let fields = try members(node, what, required: ["tip", "parameters", "parametersStamp", "displays"], optional: ["reset", "invalidated"])
        guard let parametersNode = fields["parameters"], let displaysNode = fields["displays"] else { throw fail(node, "\(what) is incomplete") }
        var tip = SyncState.Tip(
            tip: TipID(try string(fields["tip"], "\(what): tip", in: node)), parameters: try record(parametersNode, depth: 0),
            parametersStamp: try stamp(fields["parametersStamp"], "\(what): parametersStamp", in: node))
        if let reset = fields["reset"] { tip.reset = try stamp(reset, "\(what): reset", in: node) }
        for member in try object(displaysNode, "\(what): displays") {
            guard SyncStateFile.isValidDeviceID(member.key) else {
                throw SyncStateFileError("\(what): '\(member.key)' is not a device id", at: document.location(ofKey: member))
            }
            let counter = try members(member.value, "\(what): displays of \(member.key)", required: ["count", "seconds"], optional: ["first", "last"])
            let seconds = try number(counter["seconds"], "seconds", in: member.value)
            guard seconds >= 0, let secondsNode = counter["seconds"] else { throw fail(counter["seconds"] ?? member.value, "seconds must not be negative") }
            _ = secondsNode
            tip.displays[member.key] = SyncState.DisplayCounter(
                count: try integer(counter["count"], "count", in: member.value), seconds: seconds,
                first: try optionalTime(counter["first"], "first", in: member.value), last: try optionalTime(counter["last"], "last", in: member.value))
        }
        if let node = fields["invalidated"] {
            let entry = try members(node, "\(what): invalidated", required: ["reason", "at", "device"])
            let reasonText = try string(entry["reason"], "reason", in: node)
            guard let reason = TipInvalidationReason(rawValue: reasonText) else {
                let names = TipInvalidationReason.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail(entry["reason"] ?? node, "unknown invalidation reason '\(reasonText)' (expected one of \(names))")
            }
            tip.invalidation = SyncState.Invalidation(
                reason: reason, at: try time(entry["at"], "at", in: node), device: try device(entry["device"], "device", in: node))
        }
        return tip
    }

    func record(_ node: JSONNode, depth: Int) throws(SyncStateFileError) -> [String: Value] {
        var fields: [String: Value] = [:]
        for member in try object(node, "a record of values") {
            fields[member.key] = try value(member.value, depth: depth + 1)
        }
        return fields
    }

    func value(_ node: JSONNode, depth: Int) throws(SyncStateFileError) -> Value {
        guard depth < 64 else { throw fail(node, "values nest too deeply") }
        switch node.value {
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if number.isInteger {
                guard let value = number.intValue else { throw fail(node, "the integer \(number.text) is out of range") }
                return .int(value)
            }
            guard number.doubleValue.isFinite else { throw fail(node, "the number \(number.text) is out of range") }
            return .double(number.doubleValue)
        case .array(let elements):
            var values: [Value] = []
            for element in elements { values.append(try value(element, depth: depth + 1)) }
            return .list(values)
        case .null:
            throw fail(node, "null is not a value (values are strings, numbers, booleans, lists, {\"date\": …}, {\"set\": […]}, {\"record\": {…}})")
        case .object(let object):
            guard object.members.count == 1, let member = object.members.first else {
                throw fail(node, "a tagged value has exactly one member: date, double, set or record")
            }
            switch member.key {
            case "record": return .record(try record(member.value, depth: depth + 1))
            case "set":
                guard case .list(let values) = try value(member.value, depth: depth + 1) else { throw fail(member.value, "a set holds an array") }
                return .set(values)
            case "date":
                if case .string(let text) = member.value.value, let seconds = Double(text), !seconds.isFinite {
                    return .date(Timestamp(secondsSince1970: seconds))
                }
                return .date(try time(member.value, "a date", in: node))
            case "double":
                guard case .string(let text) = member.value.value, ["NaN", "Infinity", "-Infinity"].contains(text) else {
                    throw fail(member.value, "{\"double\": …} holds \"NaN\", \"Infinity\" or \"-Infinity\"")
                }
                return .double(text == "NaN" ? .nan : text == "Infinity" ? .infinity : -.infinity)
            default:
                throw SyncStateFileError("unknown value tag '\(member.key)' (date, double, set or record)", at: document.location(ofKey: member))
            }
        }
    }
}
