public import TipcatCatalog
public import TipcatLocalization
public import TipcatRules

/// How an engine runs, as TipKit's `Tips.configure(_:)`: set once per engine.
public struct TipEngineConfiguration: Sendable {
    /// How often a new tip may appear; nil uses the catalog's `displayFrequency`.
    public var displayFrequency: DisplayFrequency?
    /// The locale custom IDs are formatted in; nil uses the catalog's source language.
    public var locale: LocaleID?
    /// Where `now` comes from.
    public var clock: any TipClock
    /// The user's time zone, for calendar rules (`now.hour >= 18`, `$firstLaunch.isToday`); UTC by default —
    /// an app passes the device's.
    public var timeZone: RuleTimeZone
    /// Testing overrides (TipKit's `showAllTipsForTesting` and friends).
    public var overrides: TipOverrides
    /// Wipe the state store before starting (TipKit's `resetDatastore`).
    public var resetDatastore: Bool
    /// Environment variables read for the `TIPCAT_*` twins of TipKit's launch arguments (see `TipOverrides`).
    /// Passed in, never read from the process, so callers decide.
    public var environment: [String: String]

    /// Creates a configuration; by default the catalog's frequency and locale, the system clock, no overrides.
    public init(
        displayFrequency: DisplayFrequency? = nil, locale: LocaleID? = nil, clock: any TipClock = SystemClock(),
        overrides: TipOverrides = TipOverrides(), resetDatastore: Bool = false, environment: [String: String] = [:],
        timeZone: RuleTimeZone = .utc
    ) {
        self.timeZone = timeZone
        self.displayFrequency = displayFrequency
        self.locale = locale
        self.clock = clock
        self.overrides = overrides
        self.resetDatastore = resetDatastore
        self.environment = environment
    }
}

/// Which published version of the catalog an engine runs, for republish policies.
///
/// When the version differs from the one the state was last used with, every tip whose `republish` is
/// `reset` and whose content hash changed gets its state reset (status, display count and duration).
public struct CatalogRevision: Sendable, Hashable {
    /// The version's identifier (a publish number, a content digest, anything that changes with the content).
    public var version: String
    private var deferred: TipContentHashes

    /// A hash of each tip's content in this version.
    public var contentHashes: [TipID: String] {
        get { deferred.hashes }
        set { deferred = TipContentHashes(newValue) }
    }

    /// Creates a revision.
    public init(version: String, contentHashes: [TipID: String]) {
        self.version = version
        deferred = TipContentHashes(contentHashes)
    }

    /// Creates a revision whose hashes are read when the engine first needs them (when the state was last used
    /// with another version).
    public init(version: String, contentHashes: TipContentHashes) {
        self.version = version
        deferred = contentHashes
    }

    public static func == (lhs: CatalogRevision, rhs: CatalogRevision) -> Bool {
        lhs.version == rhs.version && (lhs.deferred === rhs.deferred || lhs.contentHashes == rhs.contentHashes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(contentHashes)
    }
}
