/// Where something is written: a file relative to the catalog directory and an RFC 6901 JSON pointer into it.
/// Hand it back in a finding (`PluginDiagnostic(…, at: place)`) and tipcat prints the exact line and column.
public struct Place: Sendable, Codable, Hashable {
    public var file: String
    public var pointer: String

    public init(file: String, pointer: String) {
        self.file = file
        self.pointer = pointer
    }
}

/// The resolved catalog a plugin receives: every tip with all its fields and translations, groups, events and
/// app parameters, each located.
public struct PluginCatalog: Sendable, Codable, Hashable {
    /// The catalog directory as the user named it; the plugin runs with it as its working directory.
    public var root: String
    public var name: String
    public var sourceLanguage: String
    public var supportedLocales: [String]
    public var displayFrequency: String
    public var enabled: Bool
    public var tips: [Tip]
    public var groups: [Group]
    public var events: [Event]
    public var parameters: [Parameter]

    public init(
        root: String, name: String, sourceLanguage: String, supportedLocales: [String], displayFrequency: String,
        enabled: Bool, tips: [Tip], groups: [Group], events: [Event], parameters: [Parameter]
    ) {
        self.root = root
        self.name = name
        self.sourceLanguage = sourceLanguage
        self.supportedLocales = supportedLocales
        self.displayFrequency = displayFrequency
        self.enabled = enabled
        self.tips = tips
        self.groups = groups
        self.events = events
        self.parameters = parameters
    }

    /// One tip.
    public struct Tip: Sendable, Codable, Hashable {
        public var id: String
        /// The tip's file (pointer "").
        public var at: Place
        public var title: Text
        public var message: Text?
        public var customID: Text?
        public var image: String?
        public var actions: [Action]
        public var parameters: [Field]
        public var rules: [Rule]
        public var options: Options
        public var republish: String
        public var comment: String?
        public var example: [String: PluginJSON]?

        public init(
            id: String, at: Place, title: Text, message: Text? = nil, customID: Text? = nil, image: String? = nil,
            actions: [Action] = [], parameters: [Field] = [], rules: [Rule] = [], options: Options = Options(),
            republish: String = "keep", comment: String? = nil, example: [String: PluginJSON]? = nil
        ) {
            self.id = id
            self.at = at
            self.title = title
            self.message = message
            self.customID = customID
            self.image = image
            self.actions = actions
            self.parameters = parameters
            self.rules = rules
            self.options = options
            self.republish = republish
            self.comment = comment
            self.example = example
        }

        /// Title, message and action titles, in that order.
        public var texts: [Text] { [title] + (message.map { [$0] } ?? []) + actions.map(\.title) }
    }

    /// A localizable text: the source text from the tip file and its translations.
    public struct Text: Sendable, Codable, Hashable {
        /// The String Catalog key (`NewTrailTip.title`).
        public var key: String
        /// The source-language text, as written in the tip file.
        public var text: String
        public var at: Place
        /// By locale.
        public var translations: [String: Translation]

        public init(key: String, text: String, at: Place, translations: [String: Translation] = [:]) {
            self.key = key
            self.text = text
            self.at = at
            self.translations = translations
        }
    }

    /// One translation of a text.
    public struct Translation: Sendable, Codable, Hashable {
        /// The whole message (for plural variations, as one ICU plural message).
        public var text: String
        /// `new`, `translated`, `needs_review` or `stale`.
        public var state: String
        public var at: Place
        /// For String Catalog plural variations: the argument and the text of each category.
        public var plural: Plural?

        public init(text: String, state: String, at: Place, plural: Plural? = nil) {
            self.text = text
            self.state = state
            self.at = at
            self.plural = plural
        }
    }

    /// Plural variations of a translation.
    public struct Plural: Sendable, Codable, Hashable {
        public var argument: String
        /// Category (`one`, `other`…) → text.
        public var forms: [String: String]
        /// Category → where its text is written.
        public var at: [String: Place]

        public init(argument: String, forms: [String: String], at: [String: Place]) {
            self.argument = argument
            self.forms = forms
            self.at = at
        }
    }

    public struct Action: Sendable, Codable, Hashable {
        public var id: String
        public var title: Text
        public var at: Place

        public init(id: String, title: Text, at: Place) {
            self.id = id
            self.title = title
            self.at = at
        }
    }

    /// A typed field: a tip parameter or an event's donation field. Types as written (`string`, `list<int>`).
    public struct Field: Sendable, Codable, Hashable {
        public var name: String
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    public struct Rule: Sendable, Codable, Hashable {
        public var text: String
        public var at: Place

        public init(text: String, at: Place) {
            self.text = text
            self.at = at
        }
    }

    public struct Options: Sendable, Codable, Hashable {
        public var maxDisplayCount: Int?
        /// In seconds.
        public var maxDisplayDuration: Double?
        public var ignoresDisplayFrequency: Bool

        public init(maxDisplayCount: Int? = nil, maxDisplayDuration: Double? = nil, ignoresDisplayFrequency: Bool = false) {
            self.maxDisplayCount = maxDisplayCount
            self.maxDisplayDuration = maxDisplayDuration
            self.ignoresDisplayFrequency = ignoresDisplayFrequency
        }
    }

    public struct Group: Sendable, Codable, Hashable {
        public var id: String
        public var priority: String
        public var tips: [String]
        public var at: Place

        public init(id: String, priority: String, tips: [String], at: Place) {
            self.id = id
            self.priority = priority
            self.tips = tips
            self.at = at
        }
    }

    public struct Event: Sendable, Codable, Hashable {
        public var id: String
        public var fields: [Field]
        public var donationLimit: DonationLimit?
        public var description: String?
        public var at: Place

        public init(id: String, fields: [Field], donationLimit: DonationLimit? = nil, description: String? = nil, at: Place) {
            self.id = id
            self.fields = fields
            self.donationLimit = donationLimit
            self.description = description
            self.at = at
        }
    }

    public struct DonationLimit: Sendable, Codable, Hashable {
        public var maxCount: Int?
        /// In seconds.
        public var maxAge: Double?

        public init(maxCount: Int? = nil, maxAge: Double? = nil) {
            self.maxCount = maxCount
            self.maxAge = maxAge
        }
    }

    public struct Parameter: Sendable, Codable, Hashable {
        public var name: String
        public var type: String
        public var `default`: PluginJSON
        public var lifetime: String
        public var description: String?
        public var at: Place

        public init(name: String, type: String, default: PluginJSON, lifetime: String, description: String? = nil, at: Place) {
            self.name = name
            self.type = type
            self.default = `default`
            self.lifetime = lifetime
            self.description = description
            self.at = at
        }
    }
}
