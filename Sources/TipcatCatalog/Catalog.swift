public import TipcatCore
public import TipcatRules
public import TipcatLocalization

/// A whole tip catalog as loaded from a directory: settings, declarations, tips, groups and translations.
///
/// Every element remembers where it was written, so later checks (lint rules, publish, the engine) can point
/// at the exact file, line and column.
public struct Catalog: Sendable {
    /// The directory the catalog was loaded from, as given by the user.
    public var root: String
    public var settings: CatalogSettings
    public var parameters: [AppParameter]
    public var events: [EventDeclaration]
    public var groups: [TipGroup]
    public var tips: [Tip]
    public var localizations: LocalizationTable
    /// The house style from `lint.json` (empty when there is none): content rules and rule levels.
    public var lint: LintConfiguration

    public init(
        root: String, settings: CatalogSettings, parameters: [AppParameter] = [], events: [EventDeclaration] = [],
        groups: [TipGroup] = [], tips: [Tip] = [], localizations: LocalizationTable, lint: LintConfiguration = LintConfiguration()
    ) {
        self.lint = lint
        self.root = root
        self.settings = settings
        self.parameters = parameters
        self.events = events
        self.groups = groups
        self.tips = tips
        self.localizations = localizations
    }

    public func tip(_ id: TipID) -> Tip? { tips.first { $0.id == id } }
    public func event(_ id: EventID) -> EventDeclaration? { events.first { $0.id == id } }
    public func parameter(_ name: ParameterName) -> AppParameter? { parameters.first { $0.name == name } }
    public func group(_ id: GroupID) -> TipGroup? { groups.first { $0.id == id } }
    /// The group a tip belongs to, if any.
    public func group(containing tip: TipID) -> TipGroup? { groups.first { $0.tips.contains(tip) } }
}

/// The settings in `catalog.json`.
public struct CatalogSettings: Sendable, Hashable {
    public var name: String
    public var schemaVersion: Int
    public var sourceLanguage: LocaleID
    public var supportedLocales: [LocaleID]
    public var displayFrequency: DisplayFrequency
    /// The catalog-level kill switch: when false, no tip is ever shown.
    public var enabled: Bool
    public var location: SourceLocation?

    public static let currentSchemaVersion = 1

    public init(
        name: String, schemaVersion: Int = CatalogSettings.currentSchemaVersion, sourceLanguage: LocaleID,
        supportedLocales: [LocaleID], displayFrequency: DisplayFrequency = .immediate, enabled: Bool = true,
        location: SourceLocation? = nil
    ) {
        self.name = name
        self.schemaVersion = schemaVersion
        self.sourceLanguage = sourceLanguage
        self.supportedLocales = supportedLocales
        self.displayFrequency = displayFrequency
        self.enabled = enabled
        self.location = location
    }
}

/// How often a new tip may appear, as TipKit's `displayFrequency`.
public enum DisplayFrequency: Sendable, Hashable, CustomStringConvertible {
    case immediate, hourly, daily, weekly, monthly
    case custom(TimeSpan)

    public static let namedCases: [(String, DisplayFrequency)] = [
        ("immediate", .immediate), ("hourly", .hourly), ("daily", .daily), ("weekly", .weekly), ("monthly", .monthly),
    ]

    /// The minimum time between two newly shown tips. Monthly is 30 days.
    public var interval: TimeSpan {
        switch self {
        case .immediate: TimeSpan(seconds: 0)
        case .hourly: TimeSpan(seconds: 3600)
        case .daily: TimeSpan(seconds: 86_400)
        case .weekly: TimeSpan(seconds: 604_800)
        case .monthly: TimeSpan(seconds: 2_592_000)
        case .custom(let span): span
        }
    }

    public var description: String {
        if case .custom(let span) = self { return span.description }
        return DisplayFrequency.namedCases.first { $0.1 == self }?.0 ?? "immediate"
    }
}

/// An app-wide parameter (`parameters.json`), TipKit's `@Parameter`.
public struct AppParameter: Sendable, Hashable {
    public enum Lifetime: String, Sendable, Hashable, CaseIterable {
        /// Kept across engine starts.
        case persistent
        /// Reset to its default at each engine start (TipKit's `.transient`).
        case transient
    }

    public var name: ParameterName
    public var type: ValueType
    public var defaultValue: Value
    public var lifetime: Lifetime
    public var description: String?
    public var location: SourceLocation?

    public init(
        name: ParameterName, type: ValueType, defaultValue: Value, lifetime: Lifetime = .persistent,
        description: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.lifetime = lifetime
        self.description = description
        self.location = location
    }
}

/// An app-wide event (`events.json`), TipKit's `Tips.Event`, with typed donation fields.
public struct EventDeclaration: Sendable, Hashable {
    public var id: EventID
    /// Donation value fields, in declaration order.
    public var fields: [ValueType.RecordField]
    public var donationLimit: DonationLimit?
    public var description: String?
    public var location: SourceLocation?
    /// Where `donationLimit.maxCount` is written, when it is.
    public var maxCountLocation: SourceLocation?

    public init(
        id: EventID, fields: [ValueType.RecordField] = [], donationLimit: DonationLimit? = nil,
        description: String? = nil, location: SourceLocation? = nil, maxCountLocation: SourceLocation? = nil
    ) {
        self.id = id
        self.fields = fields
        self.donationLimit = donationLimit
        self.description = description
        self.location = location
        self.maxCountLocation = maxCountLocation
    }

    /// How many of its donations rules can see, and where that is declared (for the rule checker).
    public var donationCountLimit: DonationCountLimit {
        if let maxCount = donationLimit?.maxCount {
            return DonationCountLimit(maxCount: maxCount, isDeclared: true, location: maxCountLocation ?? location)
        }
        return DonationCountLimit(maxCount: DonationLog.defaultMaxCount, isDeclared: false, location: location)
    }

    public func field(_ name: String) -> ValueType? { fields.first { $0.name == name }?.type }
}

/// Which donations rules may see: at most `maxCount` most recent ones, none older than `maxAge`.
public struct DonationLimit: Sendable, Hashable {
    public var maxCount: Int?
    public var maxAge: TimeSpan?
    public init(maxCount: Int? = nil, maxAge: TimeSpan? = nil) {
        self.maxCount = maxCount
        self.maxAge = maxAge
    }
}

/// A tip group (`groups.json`), TipKit's `TipGroup`.
public struct TipGroup: Sendable, Hashable {
    public enum Priority: String, Sendable, Hashable, CaseIterable {
        /// A tip shows only when every earlier tip in the group is invalidated.
        case ordered
        /// The first eligible tip shows.
        case firstAvailable
    }

    public var id: GroupID
    public var priority: Priority
    public var tips: [TipID]
    public var location: SourceLocation?
    /// Where each member is written, parallel to `tips`.
    public var memberLocations: [SourceLocation?]

    public init(
        id: GroupID, priority: Priority, tips: [TipID], location: SourceLocation? = nil,
        memberLocations: [SourceLocation?] = []
    ) {
        self.id = id
        self.priority = priority
        self.tips = tips
        self.location = location
        self.memberLocations = memberLocations.isEmpty ? tips.map { _ in nil } : memberLocations
    }
}
