import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatJSON

/// A device's exported state: the file `tipcat engine export-state` writes and `merge-state` reads.
///
/// JSON, format 1:
/// ```json
/// {
///   "format": 1,
///   "kind": "tipcat-state",
///   "device": "9f2c61d04b7a3e15",
///   "clock": {"ms": 1767600000000, "counter": 0},
///   "lastNewTipShown": 1767600000.0,
///   "parameters": {
///     "isLoggedIn": {"stamp": {"counter": 0, "device": "9f2c61d04b7a3e15", "ms": 1767600000000}, "value": true}
///   },
///   "tips": {
///     "FavoriteBackyardTip": {"displays": {"9f2c61d04b7a3e15": {"count": 1, "first": 1767600000.0, "last": 1767600000.0, "seconds": 4.5}},
///                             "invalidated": {"at": 1767600010.0, "device": "9f2c61d04b7a3e15", "reason": "tipClosed"},
///                             "parameters": {}, "parametersStamp": {…}, "reset": {…}, "tip": "FavoriteBackyardTip"}
///   },
///   "deleted": {"opened-map": {"at": 1767500000.0, "device": "9f2c61d04b7a3e15", "seq": 12}},
///   "donations": [
///     {"at": 1767600000.0, "device": "9f2c61d04b7a3e15", "event": "opened-map", "seq": 13, "values": {}}
///   ]
/// }
/// ```
/// Times are seconds since 1970-01-01T00:00:00Z as JSON numbers (exact: the shortest text that reads back as
/// the same double). Values keep their type: strings, booleans and lists as JSON; an `int` as an integer; a
/// `double` as a number with a fraction or exponent (`2.0`); a date as `{"date": seconds}`; a set as
/// `{"set": [...]}`; a record as `{"record": {...}}`; a double JSON cannot write as `{"double": "NaN"}`
/// (`"Infinity"`, `"-Infinity"`). `reset`, `invalidated`, `lastNewTipShown` are left out when absent.
/// Every member is required otherwise, and no other member is allowed.
public struct SyncStateFile: Sendable, Hashable {
    /// The value of `kind`.
    public static let kind = "tipcat-state"
    /// The format this tipcat writes and the newest it reads.
    public static let formatVersion = 1

    /// The device that wrote the file.
    public var device: String
    public var state: SyncState

    public init(device: String, state: SyncState) {
        self.device = device
        self.state = state
    }

    /// Whether `text` can be a device id: 1 to 64 ASCII letters, digits, `.`, `_` or `-`.
    public static func isValidDeviceID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    // MARK: Writing

    /// The file's bytes: the members above in that order, one parameter, tip, deletion or donation a line
    /// (keys sorted within each), and a final newline. Equal states give equal bytes.
    public var fileBytes: [UInt8] {
        var out = "{\n"
        out += "  \"format\": \(SyncStateFile.formatVersion),\n"
        out += "  \"kind\": \(Self.text(.string(SyncStateFile.kind))),\n"
        out += "  \"device\": \(Self.text(.string(device))),\n"
        out += "  \"clock\": \(Self.text(Self.encode(state.clock))),\n"
        if let shown = state.lastNewTipShown { out += "  \"lastNewTipShown\": \(Self.text(Self.encode(shown))),\n" }
        out += Self.section("parameters", state.parameters.keys.sorted().map { name in
            (name.rawValue, state.parameters[name].map(Self.encode) ?? .null)
        })
        out += Self.section("tips", state.tips.keys.sorted().map { instance in
            (instance.rawValue, state.tips[instance].map(Self.encode) ?? .null)
        })
        out += Self.section("deleted", state.deletions.keys.sorted().map { event in
            (event.rawValue, state.deletions[event].map(Self.encode) ?? .null)
        })
        let donations = state.donations.values.sorted { ($0.event, $0.key) < ($1.event, $1.key) }
        if donations.isEmpty {
            out += "  \"donations\": []\n"
        } else {
            out += "  \"donations\": [\n"
            out += donations.map { "    " + Self.text(Self.encode($0)) }.joined(separator: ",\n")
            out += "\n  ]\n"
        }
        out += "}\n"
        return Array(out.utf8)
    }

    private static func section(_ name: String, _ members: [(String, JSONValue)]) -> String {
        guard !members.isEmpty else { return "  \"\(name)\": {},\n" }
        return "  \"\(name)\": {\n" + members.map { "    \(text(.string($0.0))): \(text($0.1))" }.joined(separator: ",\n") + "\n  },\n"
    }

    private static func text(_ value: JSONValue) -> String { value.serialized(sortedKeys: true) }

    static func encode(_ time: Timestamp) -> JSONValue { .double(time.secondsSince1970) }

    static func encode(_ time: HybridTime) -> JSONValue {
        .object([("counter", .int(Int(time.counter))), ("ms", .int(Int(time.milliseconds)))])
    }

    static func encode(_ stamp: HLCStamp) -> JSONValue {
        .object([("counter", .int(Int(stamp.time.counter))), ("device", .string(stamp.device)), ("ms", .int(Int(stamp.time.milliseconds)))])
    }

    static func encode(_ value: SyncState.StampedValue) -> JSONValue {
        .object([("stamp", encode(value.stamp)), ("value", encode(value.value))])
    }

    static func encode(_ key: SyncState.DonationKey) -> JSONValue {
        .object([("at", encode(key.timestamp)), ("device", .string(key.id.device)), ("seq", .int(Int(key.id.sequence)))])
    }

    static func encode(_ donation: SyncState.Donation) -> JSONValue {
        .object([
            ("at", encode(donation.timestamp)), ("device", .string(donation.id.device)), ("event", .string(donation.event.rawValue)),
            ("seq", .int(Int(donation.id.sequence))), ("values", encode(record: donation.values)),
        ])
    }

    static func encode(_ tip: SyncState.Tip) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("tip", .string(tip.tip.rawValue)), ("parameters", encode(record: tip.parameters)), ("parametersStamp", encode(tip.parametersStamp)),
        ]
        if let reset = tip.reset { members.append(("reset", encode(reset))) }
        members.append(("displays", .object(tip.displays.keys.sorted().map { device in
            let counter = tip.displays[device] ?? SyncState.DisplayCounter()
            var fields: [(String, JSONValue)] = [("count", .int(counter.count)), ("seconds", .double(counter.seconds))]
            if let first = counter.first { fields.append(("first", encode(first))) }
            if let last = counter.last { fields.append(("last", encode(last))) }
            return (device, .object(fields))
        })))
        if let invalidation = tip.invalidation {
            members.append(("invalidated", .object([
                ("reason", .string(invalidation.reason.rawValue)), ("at", encode(invalidation.at)), ("device", .string(invalidation.device)),
            ])))
        }
        return .object(members)
    }

    static func encode(record fields: [String: Value]) -> JSONValue {
        .object(fields.keys.sorted().map { ($0, fields[$0].map(encode) ?? .null) })
    }

    static func encode(_ value: Value) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .int(let number): return .int(number)
        case .bool(let flag): return .bool(flag)
        case .double(let number):
            if number.isNaN { return .object([("double", .string("NaN"))]) }
            if number.isInfinite { return .object([("double", .string(number > 0 ? "Infinity" : "-Infinity"))]) }
            return .double(number)
        case .date(let time):
            guard time.secondsSince1970.isFinite else { return .object([("date", .string(String(time.secondsSince1970)))]) }
            return .object([("date", .double(time.secondsSince1970))])
        case .list(let values): return .array(values.map(encode))
        case .set(let values): return .object([("set", .array(values.map(encode)))])
        case .record(let fields): return .object([("record", encode(record: fields))])
        }
    }

    /// A deterministic order of two registrations with the same stamp (only possible from damaged input).
    static func order(_ tip: TipID, _ parameters: [String: Value], before other: TipID, _ otherParameters: [String: Value]) -> Bool {
        (tip.rawValue, text(encode(record: parameters))) < (other.rawValue, text(encode(record: otherParameters)))
    }

    static func order(_ value: Value, before other: Value) -> Bool { text(encode(value)) < text(encode(other)) }

    static func order(_ donation: SyncState.Donation, before other: SyncState.Donation) -> Bool {
        text(encode(donation)) < text(encode(other))
    }
}
