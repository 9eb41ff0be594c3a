public import TipcatCatalog
public import TipcatCore

/// Something that happened to a tip, for an app's analytics: a display started or ended, an action, an
/// invalidation, or a tip the app asked about that was not shown.
///
/// The engine records events only when asked to (`TipEngineSession.recordsEvents`, or a listener on
/// `TipEngine.events()` / `onEvent`); recording is an append to an in-memory buffer after the state change is
/// stored, so it never changes or delays a decision.
public struct TipEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A display started (`displayed`); the display count after it.
        case shown(displayCount: Int)
        /// A display ended (`hidden`, or a display ended by an invalidation, the next `displayed` or the
        /// display duration limit); how long it lasted.
        case closed(duration: TimeSpan)
        /// The user chose one of the tip's actions (`performAction`).
        case actionPerformed(action: String)
        /// The tip's status became `invalidated(reason)`.
        case invalidated(TipInvalidationReason)
        /// The app asked whether to show the tip (`shouldDisplay`, `displayDecision`) and the engine said no.
        case suppressed(TipSuppressionReason)
    }

    /// When it happened (the engine's clock; for a display that reached its maximum duration, when it did).
    public var time: Timestamp
    public var kind: Kind
    /// The tip.
    public var tip: TipID
    /// The instance (the tip's id, or a custom ID).
    public var instance: TipInstanceID

    /// Creates an event.
    public init(time: Timestamp, kind: Kind, tip: TipID, instance: TipInstanceID) {
        self.time = time
        self.kind = kind
        self.tip = tip
        self.instance = instance
    }

    /// The kind's name as written in the log: `shown`, `closed`, `actionPerformed`, `invalidated`, `suppressed`.
    public var kindName: String {
        switch kind {
        case .shown: "shown"
        case .closed: "closed"
        case .actionPerformed: "actionPerformed"
        case .invalidated: "invalidated"
        case .suppressed: "suppressed"
        }
    }

    /// Every kind name, in the order above.
    public static let kindNames = ["shown", "closed", "actionPerformed", "invalidated", "suppressed"]

    /// The kind's details, in a fixed order: `displayCount`, `duration` (seconds), `action` or `reason`.
    public var details: [(name: String, value: Detail)] {
        switch kind {
        case .shown(let count): [("displayCount", .number(Double(count)))]
        case .closed(let duration): [("duration", .number(duration.seconds))]
        case .actionPerformed(let action): [("action", .string(action))]
        case .invalidated(let reason): [("reason", .string(reason.rawValue))]
        case .suppressed(let reason): [("reason", .string(reason.rawValue))]
        }
    }

    /// A detail's value.
    public enum Detail: Sendable, Hashable, CustomStringConvertible {
        case string(String)
        case number(Double)

        /// The number as JSON writes it (`3`, `12.5`), the string as it is.
        public var description: String {
            switch self {
            case .string(let text): text
            case .number(let number): TipEvent.numberText(number)
            }
        }
    }

    /// One line of JSON, without the newline, members in this order:
    /// `{"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}`;
    /// `"instance"` follows `"tip"` when the instance is a custom ID.
    public var jsonLine: String {
        var text = "{\"time\":" + TipEvent.jsonString(time.iso8601) + ",\"kind\":" + TipEvent.jsonString(kindName)
            + ",\"tip\":" + TipEvent.jsonString(tip.rawValue)
        if instance.rawValue != tip.rawValue { text += ",\"instance\":" + TipEvent.jsonString(instance.rawValue) }
        text += ",\"details\":{"
        text += details.map { name, value in
            let encoded: String
            switch value {
            case .string(let string): encoded = TipEvent.jsonString(string)
            case .number(let number): encoded = TipEvent.numberText(number)
            }
            return TipEvent.jsonString(name) + ":" + encoded
        }.joined(separator: ",")
        return text + "}}"
    }

    /// `time kind instance details`, for people.
    public var description: String {
        "\(time) \(kindName) \(instance) " + details.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A whole number without a fraction (`3`), others as Swift prints them (`12.5`); never NaN or infinite.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "0" }
        if number == number.rounded(), abs(number) < 9.0e15 { return String(Int(number)) }
        return String(number)
    }
}

/// Why a tip the app asked about was not shown (`TipEvent.Kind.suppressed`).
public enum TipSuppressionReason: String, Sendable, Hashable, CaseIterable {
    /// Eligible, but a tip was shown for the first time less than the display frequency ago.
    case frequency
    /// Available, but its group shows another tip now.
    case group
    /// Hidden by a testing override (`hideTips`, `hideAllTips`) or the catalog's kill switch.
    case override
    /// Not every rule holds.
    case rules
}

/// The answer to "may the app show this tip now?" (`displayDecision`).
public enum TipDisplayDecision: Sendable, Hashable, CustomStringConvertible {
    /// Show it.
    case show
    /// Not now, for this reason.
    case suppressed(TipSuppressionReason)
    /// Never, until its eligibility is reset.
    case invalidated(TipInvalidationReason)

    /// `show`, `suppressed(frequency)`, `invalidated(tipClosed)`.
    public var description: String {
        switch self {
        case .show: "show"
        case .suppressed(let reason): "suppressed(\(reason.rawValue))"
        case .invalidated(let reason): "invalidated(\(reason.rawValue))"
        }
    }
}
