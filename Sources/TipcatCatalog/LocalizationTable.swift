public import TipcatCore
public import TipcatLocalization

/// The translations from `Localizable.xcstrings`, by key and locale.
public struct LocalizationTable: Sendable, Hashable {
    public var sourceLanguage: LocaleID
    public var entries: [String: Entry]
    /// The String Catalog's path, when there is one.
    public var file: String?

    public init(sourceLanguage: LocaleID, entries: [String: Entry] = [:], file: String? = nil) {
        self.sourceLanguage = sourceLanguage
        self.entries = entries
        self.file = file
    }

    /// One key's translations.
    public struct Entry: Sendable, Hashable {
        public var comment: String?
        public var translations: [LocaleID: Translation]
        public var location: SourceLocation?
        public init(comment: String? = nil, translations: [LocaleID: Translation] = [:], location: SourceLocation? = nil) {
            self.comment = comment
            self.translations = translations
            self.location = location
        }
    }

    /// Every locale that has at least one translation.
    public var locales: Set<LocaleID> {
        Set(entries.values.flatMap { $0.translations.keys })
    }

    /// The best translation of `key` for `locale` along the fallback chain, or nil to use the tip file's text.
    public func translation(_ key: String, for locale: LocaleID) -> Translation? {
        lookup(key, for: locale)?.translation
    }

    /// Like `translation(_:for:)`, also telling which locale of the chain (`fr-CA → fr → en`) supplied it. The
    /// String Catalog's own source-language string (say English plural variations) is used as Xcode does, before
    /// the tip file's text.
    public func lookup(_ key: String, for locale: LocaleID) -> (translation: Translation, locale: LocaleID)? {
        guard let entry = entries[key] else { return nil }
        for candidate in locale.fallbackChain(sourceLanguage: sourceLanguage) {
            if let translation = entry.translations[candidate], translation.state == .translated {
                return (translation, candidate)
            }
        }
        return nil
    }
}

/// One translation of one key into one locale.
public struct Translation: Sendable, Hashable {
    /// String Catalog states; only `translated` values are used at runtime.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case new
        case translated
        case needsReview = "needs_review"
        case stale
    }

    public enum Content: Sendable, Hashable {
        /// A whole message (it may contain its own ICU plurals).
        case message(Message)
        /// `variations.plural`: per-category texts for the source message's single plural argument.
        case plural(argument: String, forms: [String: Message])

        /// The content as one message (a plural variation becomes `{argument, plural, …}`).
        public var message: Message {
            switch self {
            case .message(let message): message
            case .plural(let argument, let forms): Message.pluralVariation(argument: argument, forms: forms)
            }
        }
    }

    public var content: Content
    public var state: State
    public var location: SourceLocation?
    /// Whether `location` is a string that holds the message text exactly as decoded (no JSON escapes), so
    /// a character's column inside it is `location.column + 1 +` the characters before it.
    public var isVerbatim: Bool

    public init(content: Content, state: State, location: SourceLocation? = nil, isVerbatim: Bool = false) {
        self.content = content
        self.state = state
        self.location = location
        self.isVerbatim = isVerbatim
    }
}
