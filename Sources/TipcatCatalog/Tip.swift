public import TipcatCore
public import TipcatLocalization

/// One tip, as written in `tips/<TipID>.json`.
public struct Tip: Sendable, Hashable {
    public var id: TipID
    /// The custom-ID template (`NewTrailTip-{trail.id}`); nil when the tip's id is used as is.
    public var customID: LocalizedText?
    public var title: LocalizedText
    public var message: LocalizedText?
    /// A symbol name such as `location.circle`.
    public var image: String?
    public var actions: [TipAction]
    /// The tip's own parameters, in declaration order.
    public var parameters: [ValueType.RecordField]
    /// Eligibility rules in the rule language; all must hold.
    public var rules: [TipRule]
    public var options: TipOptions
    public var republish: RepublishPolicy
    /// The translator comment.
    public var comment: String?
    /// Example parameter values, used by `render --all` and previews.
    public var example: [String: Value]?
    /// Per-device replacements of the tip's texts, image and actions (`"platforms": {"mac": {…}}`).
    public var platforms: [Device: TipPlatformContent]
    /// The tip's file, relative to the catalog's parent as given by the user.
    public var file: String
    public var location: SourceLocation?

    public init(
        id: TipID, customID: LocalizedText? = nil, title: LocalizedText, message: LocalizedText? = nil,
        image: String? = nil, actions: [TipAction] = [], parameters: [ValueType.RecordField] = [],
        rules: [TipRule] = [], options: TipOptions = TipOptions(), republish: RepublishPolicy = .keep,
        comment: String? = nil, example: [String: Value]? = nil, platforms: [Device: TipPlatformContent] = [:], file: String,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.customID = customID
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
        self.parameters = parameters
        self.rules = rules
        self.options = options
        self.republish = republish
        self.comment = comment
        self.example = example
        self.platforms = platforms
        self.file = file
        self.location = location
    }

    /// The type of the tip parameter `name`.
    public func parameter(_ name: String) -> ValueType? { parameters.first { $0.name == name }?.type }

    /// The type at a dotted path into the tip's parameters (`trail.region`), nil when it does not exist.
    public func parameterType(atPath path: String) -> ValueType? {
        var parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, var type = parameter(parts.removeFirst()) else { return nil }
        for part in parts {
            guard let next = type.field(part) else { return nil }
            type = next
        }
        return type
    }

    /// Every localizable text of the tip with its String Catalog key: title, message, action titles, then each
    /// platform's (`NewTrailTip.mac.title`), platforms in `Device` order.
    public var localizableTexts: [LocalizedText] {
        var texts = [title] + (message.map { [$0] } ?? []) + actions.map(\.title)
        if platforms.isEmpty { return texts }
        for device in Device.allCases {
            guard let content = platforms[device] else { continue }
            texts += (content.title.map { [$0] } ?? []) + (content.message.map { [$0] } ?? []) + (content.actions ?? []).map(\.title)
        }
        return texts
    }

    /// The tip as shown on `device`: its platform's fields replace the tip's own.
    public func content(for device: Device?) -> (title: LocalizedText, message: LocalizedText?, image: String?, actions: [TipAction]) {
        guard let device, let content = platforms[device] else { return (title, message, image, actions) }
        return (content.title ?? title, content.message ?? message, content.image ?? image, content.actions ?? actions)
    }
}

/// What a tip shows differently on one device (`"platforms": {"mac": {"message": …}}`): each field set replaces
/// the tip's own there (`actions: []` removes the actions).
public struct TipPlatformContent: Sendable, Hashable {
    /// The String Catalog key is `<TipID>.<platform>.title`.
    public var title: LocalizedText?
    /// `<TipID>.<platform>.message`.
    public var message: LocalizedText?
    public var image: String?
    /// Action titles are `<TipID>.<platform>.action.<actionID>`.
    public var actions: [TipAction]?

    public init(title: LocalizedText? = nil, message: LocalizedText? = nil, image: String? = nil, actions: [TipAction]? = nil) {
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
    }
}

/// A tip's button (TipKit's `Tips.Action`).
public struct TipAction: Sendable, Hashable {
    public var id: String
    public var title: LocalizedText
    public init(id: String, title: LocalizedText) {
        self.id = id
        self.title = title
    }
}

/// One eligibility rule: its text and where the text starts in the file.
public struct TipRule: Sendable, Hashable {
    public var source: String
    public var location: SourceLocation?
    public init(source: String, location: SourceLocation? = nil) {
        self.source = source
        self.location = location
    }
}

/// TipKit's tip options.
public struct TipOptions: Sendable, Hashable {
    /// Invalidate the tip (`displayCountExceeded`) after it has been shown this many times.
    public var maxDisplayCount: Int?
    /// Invalidate the tip (`displayDurationExceeded`) after it has been on screen this long in total.
    public var maxDisplayDuration: TimeSpan?
    /// Show the tip regardless of the catalog's display frequency.
    public var ignoresDisplayFrequency: Bool

    public init(maxDisplayCount: Int? = nil, maxDisplayDuration: TimeSpan? = nil, ignoresDisplayFrequency: Bool = false) {
        self.maxDisplayCount = maxDisplayCount
        self.maxDisplayDuration = maxDisplayDuration
        self.ignoresDisplayFrequency = ignoresDisplayFrequency
    }
}

/// What happens to a device's state for a tip when a new catalog version changes the tip's content.
public enum RepublishPolicy: String, Sendable, Hashable, CaseIterable {
    /// Keep display counts and invalidation.
    case keep
    /// Reset the tip's eligibility state, so it can show again.
    case reset
}

/// A source-language message with its String Catalog key (`NewTrailTip.title`).
public struct LocalizedText: Sendable, Hashable {
    public var key: String
    /// The text as written in the tip file.
    public var source: String
    /// The parsed message; nil when the text has a syntax error (reported by the loader).
    public var message: Message?
    public var location: SourceLocation?
    /// Whether the file holds `source` exactly as decoded (no JSON escapes), so a character's column inside
    /// the text is `location.column + 1 +` the characters before it (content lint findings use this).
    public var isVerbatim: Bool

    public init(key: String, source: String, message: Message?, location: SourceLocation? = nil, isVerbatim: Bool = false) {
        self.key = key
        self.source = source
        self.message = message
        self.location = location
        self.isVerbatim = isVerbatim
    }
}
