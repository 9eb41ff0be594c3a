public import TipcatCore
public import TipcatLocalization

/// One tip, as written in `tips/<TipID>.json`.
///
/// A value type whose fields live in one shared, copy-on-write box: a tip has many fields, and catalogs of
/// thousands of tips copy tips often (into compiled engines, render jobs, sorted lists); a copy retains one
/// box instead of every field, and a change copies the box only when it is shared.
public struct Tip: Sendable, Hashable {
    private final class Storage: @unchecked Sendable {
        var id: TipID
        var customID: LocalizedText?
        var title: LocalizedText
        var message: LocalizedText?
        var image: String?
        var actions: [TipAction]
        var parameters: [ValueType.RecordField]
        var rules: [TipRule]
        var options: TipOptions
        var republish: RepublishPolicy
        var comment: String?
        var example: [String: Value]?
        var platforms: [Device: TipPlatformContent]
        var file: String
        var location: SourceLocation?

        init(id: TipID, customID: LocalizedText?, title: LocalizedText, message: LocalizedText?, image: String?, actions: [TipAction], parameters: [ValueType.RecordField], rules: [TipRule], options: TipOptions, republish: RepublishPolicy, comment: String?, example: [String: Value]?, platforms: [Device: TipPlatformContent], file: String, location: SourceLocation?) {
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

        func copy() -> Storage {
            Storage(id: id, customID: customID, title: title, message: message, image: image, actions: actions, parameters: parameters, rules: rules, options: options, republish: republish, comment: comment, example: example, platforms: platforms, file: file, location: location)
        }
    }

    private var storage: Storage

    /// The box, copied first when another tip shares it (the one place a shared box is made unique).
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    public var id: TipID {
        get { storage.id }
        set { unique.id = newValue }
        _modify { yield &unique.id }
    }
    /// The custom-ID template (`NewTrailTip-{trail.id}`); nil when the tip's id is used as is.
    public var customID: LocalizedText? {
        get { storage.customID }
        set { unique.customID = newValue }
        _modify { yield &unique.customID }
    }
    public var title: LocalizedText {
        get { storage.title }
        set { unique.title = newValue }
        _modify { yield &unique.title }
    }
    public var message: LocalizedText? {
        get { storage.message }
        set { unique.message = newValue }
        _modify { yield &unique.message }
    }
    /// A symbol name such as `location.circle`.
    public var image: String? {
        get { storage.image }
        set { unique.image = newValue }
        _modify { yield &unique.image }
    }
    public var actions: [TipAction] {
        get { storage.actions }
        set { unique.actions = newValue }
        _modify { yield &unique.actions }
    }
    /// The tip's own parameters, in declaration order.
    public var parameters: [ValueType.RecordField] {
        get { storage.parameters }
        set { unique.parameters = newValue }
        _modify { yield &unique.parameters }
    }
    /// Eligibility rules in the rule language; all must hold.
    public var rules: [TipRule] {
        get { storage.rules }
        set { unique.rules = newValue }
        _modify { yield &unique.rules }
    }
    /// The number of rules, read without copying them (the engine asks it of every tip when it starts).
    public var ruleCount: Int { storage.rules.count }
    public var options: TipOptions {
        get { storage.options }
        set { unique.options = newValue }
        _modify { yield &unique.options }
    }
    public var republish: RepublishPolicy {
        get { storage.republish }
        set { unique.republish = newValue }
        _modify { yield &unique.republish }
    }
    /// The translator comment.
    public var comment: String? {
        get { storage.comment }
        set { unique.comment = newValue }
        _modify { yield &unique.comment }
    }
    /// Example parameter values, used by `render --all` and previews.
    public var example: [String: Value]? {
        get { storage.example }
        set { unique.example = newValue }
        _modify { yield &unique.example }
    }
    /// Per-device replacements of the tip's texts, image and actions (`"platforms": {"mac": {…}}`).
    public var platforms: [Device: TipPlatformContent] {
        get { storage.platforms }
        set { unique.platforms = newValue }
        _modify { yield &unique.platforms }
    }
    /// The tip's file, relative to the catalog's parent as given by the user.
    public var file: String {
        get { storage.file }
        set { unique.file = newValue }
        _modify { yield &unique.file }
    }
    public var location: SourceLocation? {
        get { storage.location }
        set { unique.location = newValue }
        _modify { yield &unique.location }
    }

    public init(
        id: TipID, customID: LocalizedText? = nil, title: LocalizedText, message: LocalizedText? = nil,
        image: String? = nil, actions: [TipAction] = [], parameters: [ValueType.RecordField] = [],
        rules: [TipRule] = [], options: TipOptions = TipOptions(), republish: RepublishPolicy = .keep,
        comment: String? = nil, example: [String: Value]? = nil, platforms: [Device: TipPlatformContent] = [:], file: String,
        location: SourceLocation? = nil
    ) {
        storage = Storage(id: id, customID: customID, title: title, message: message, image: image, actions: actions, parameters: parameters, rules: rules, options: options, republish: republish, comment: comment, example: example, platforms: platforms, file: file, location: location)
    }

    public static func == (lhs: Tip, rhs: Tip) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (a, b) = (lhs.storage, rhs.storage)
        return a.id == b.id
            && a.customID == b.customID
            && a.title == b.title
            && a.message == b.message
            && a.image == b.image
            && a.actions == b.actions
            && a.parameters == b.parameters
            && a.rules == b.rules
            && a.options == b.options
            && a.republish == b.republish
            && a.comment == b.comment
            && a.example == b.example
            && a.platforms == b.platforms
            && a.file == b.file
            && a.location == b.location
    }

    public func hash(into hasher: inout Hasher) {
        let box = storage
        hasher.combine(box.id)
        hasher.combine(box.customID)
        hasher.combine(box.title)
        hasher.combine(box.message)
        hasher.combine(box.image)
        hasher.combine(box.actions)
        hasher.combine(box.parameters)
        hasher.combine(box.rules)
        hasher.combine(box.options)
        hasher.combine(box.republish)
        hasher.combine(box.comment)
        hasher.combine(box.example)
        hasher.combine(box.platforms)
        hasher.combine(box.file)
        hasher.combine(box.location)
    }

    /// The type of the tip parameter `name`.
    public func parameter(_ name: String) -> ValueType? { parameters.first { $0.name == name }?.type }

    /// The type at a dotted path into the tip's parameters (`trail.region`), nil when it does not exist.
    public func parameterType(atPath path: String) -> ValueType? {
        parameters.type(atPath: path)
    }

    /// Every localizable text of the tip with its String Catalog key: title, message, action titles, then each
    /// platform's (`NewTrailTip.mac.title`), platforms in `Device` order.
    public var localizableTexts: [LocalizedText] {
        var texts: [LocalizedText] = []
        texts.reserveCapacity(2 + actions.count)
        forEachLocalizableText { texts.append($0) }
        return texts
    }

    /// Calls `body` with each of `localizableTexts` in the same order, without making the array (catalogs have
    /// tens of thousands of texts, and most callers want only their keys).
    public func forEachLocalizableText(_ body: (LocalizedText) throws -> Void) rethrows {
        let storage = storage
        try body(storage.title)
        if let message = storage.message { try body(message) }
        for action in storage.actions { try body(action.title) }
        if storage.platforms.isEmpty { return }
        for device in Device.allCases {
            guard let content = storage.platforms[device] else { continue }
            if let title = content.title { try body(title) }
            if let message = content.message { try body(message) }
            for action in content.actions ?? [] { try body(action.title) }
        }
    }

    /// The keys of `forEachLocalizableText`'s texts, in the same order (without copying each text).
    public func forEachLocalizableKey(_ body: (String) throws -> Void) rethrows {
        let storage = storage
        try body(storage.title.key)
        if let message = storage.message { try body(message.key) }
        for action in storage.actions { try body(action.title.key) }
        if storage.platforms.isEmpty { return }
        for device in Device.allCases {
            guard let content = storage.platforms[device] else { continue }
            if let title = content.title { try body(title.key) }
            if let message = content.message { try body(message.key) }
            for action in content.actions ?? [] { try body(action.title.key) }
        }
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
