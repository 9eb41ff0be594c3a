public import TipcatCore
public import TipcatLocalization
import Synchronization

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
    ///
    /// An entry read from a publish cache defers its translations (`DeferredTranslations`): they are decoded the
    /// first time they are asked for, so a publish that changes one tip never decodes the others' (it reads
    /// only which locales they have).
    public struct Entry: Sendable, Hashable {
        public var comment: String?
        public var location: SourceLocation?
        // Decoded translations are stored fields (read in place, as lookups do for every text rendered); a deferred
        // entry keeps them empty until they are first changed.
        private var storedTranslations: LocaleMap<Translation>
        private var storedDevices: LocaleMap<[String: Translation]>
        /// The translations still undecoded, while they are (for writing them back as they were read).
        package private(set) var deferred: DeferredTranslations?
        /// Whether a tip of the catalog names the key, as its decoding found (a key no tip names belongs to the app,
        /// or is an orphan); nil when not known (an entry made otherwise). Not part of the entry's value.
        package var isNamedByTip: Bool?

        public init(
            comment: String? = nil, translations: LocaleMap<Translation> = [:], devices: LocaleMap<[String: Translation]> = [:],
            location: SourceLocation? = nil
        ) {
            self.comment = comment
            self.storedTranslations = translations
            self.storedDevices = devices
            self.location = location
        }

        /// An entry whose translations are decoded when first asked for.
        package init(comment: String?, location: SourceLocation?, deferred: DeferredTranslations) {
            self.comment = comment
            self.storedTranslations = [:]
            self.storedDevices = [:]
            self.deferred = deferred
            self.location = location
        }

        /// Each locale's plain (not device-specific) translation.
        public var translations: LocaleMap<Translation> {
            _read {
                if let deferred {
                    let decoded = deferred.decoded.translations
                    yield decoded
                } else {
                    yield storedTranslations
                }
            }
            _modify {
                materialize()
                yield &storedTranslations
            }
        }

        /// Each locale's device variations (`variations.device`), by String Catalog device name (`mac`,
        /// `applewatch`, `other`, …; see `Device`).
        public var devices: LocaleMap<[String: Translation]> {
            _read {
                if let deferred {
                    let decoded = deferred.decoded.devices
                    yield decoded
                } else {
                    yield storedDevices
                }
            }
            _modify {
                materialize()
                yield &storedDevices
            }
        }

        /// The locales of `translations`, without decoding deferred ones (in no particular order).
        public var translationLocales: [LocaleID] { deferred?.locales ?? storedTranslations.keys }

        /// The locales of `devices`, without decoding deferred ones (in no particular order).
        public var deviceLocales: [LocaleID] { deferred?.deviceLocales ?? storedDevices.keys }

        /// Deferred translations decoded into the stored fields (before a change).
        private mutating func materialize() {
            guard let deferred else { return }
            (storedTranslations, storedDevices) = deferred.decoded
            self.deferred = nil
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.comment == rhs.comment && lhs.location == rhs.location && lhs.translations == rhs.translations && lhs.devices == rhs.devices
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(comment)
            hasher.combine(location)
            hasher.combine(translations)
            hasher.combine(devices)
        }

        /// The locale's state for coverage: its plain string's, else its `other` device variation's, else — when
        /// it varies only for some devices — `translated` when all of them are, or the first other state in
        /// device-name order; nil when the locale has nothing.
        public func state(for locale: LocaleID) -> Translation.State? {
            if let plain = translations[locale] { return plain.state }
            guard let variations = devices[locale], !variations.isEmpty else { return nil }
            if let other = variations[Device.otherCatalogName] { return other.state }
            return variations.keys.sorted().lazy.compactMap { variations[$0]?.state }.first { $0 != .translated } ?? .translated
        }
    }

    /// Every locale that has at least one translation.
    public var locales: Set<LocaleID> {
        Set(entries.values.flatMap(\.translationLocales))
    }

    /// The best translation of `key` for `locale` along the fallback chain, or nil to use the tip file's text.
    public func translation(_ key: String, for locale: LocaleID, device: Device? = nil) -> Translation? {
        lookup(key, for: locale, device: device)?.translation
    }

    /// Like `translation(_:for:)`, also telling which locale of the chain (`fr-CA → fr → en`) supplied it. The
    /// String Catalog's own source-language string (say English plural variations) is used as Xcode does, before
    /// the tip file's text.
    ///
    /// In each locale of the chain, a translation with device variations gives the variation of `device`, else
    /// its `other` variation (also used when no device is asked for), else the locale's plain string; only then
    /// is the next locale tried.
    public func lookup(_ key: String, for locale: LocaleID, device: Device? = nil) -> (translation: Translation, locale: LocaleID)? {
        lookup(key, chain: locale.fallbackChain(sourceLanguage: sourceLanguage), device: device)
    }

    /// `lookup(_:for:device:)` with the locale's fallback chain (`LocaleID.fallbackChain(sourceLanguage:)`) made
    /// once by the caller: resolving a tip looks up each of its texts in the same chain.
    public func lookup(_ key: String, chain: [LocaleID], device: Device? = nil) -> (translation: Translation, locale: LocaleID)? {
        guard let entry = entries[key] else { return nil }
        for candidate in chain {
            if let variations = entry.devices[candidate] {
                for name in [device?.catalogName, Device.otherCatalogName].compactMap(\.self) {
                    if let translation = variations[name], translation.state == .translated { return (translation, candidate) }
                }
            }
            if let translation = entry.translations[candidate], translation.state == .translated {
                return (translation, candidate)
            }
        }
        return nil
    }
}

/// A device a tip is shown on: String Catalog device variations and a tip's `platforms` are chosen by it.
public enum Device: String, Sendable, Hashable, CaseIterable {
    case iphone, ipad, mac, watch, tv, vision

    /// The name on the command line and in tip files (`watch`).
    public var name: String { rawValue }

    /// The name Xcode uses in `variations.device` (`applewatch`).
    public var catalogName: String {
        switch self {
        case .iphone, .ipad, .mac: rawValue
        case .watch: "applewatch"
        case .tv: "appletv"
        case .vision: "applevision"
        }
    }

    /// The device variation used for every device without its own.
    public static let otherCatalogName = "other"

    /// The names `Device(name:)` accepts.
    public static var names: [String] { allCases.map(\.name) }

    public init?(name: String) {
        self.init(rawValue: name)
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

        /// Whether this is a whole message (`message(_:)`).
        @inlinable public var isMessage: Bool {
            if case .message = self { return true }
            return false
        }

        /// How a whole message that keeps no tree holds its text (`Message.textOnly`); nil for a plural variation
        /// or a message with its tree.
        package var messageTextOnly: Message.TextOnly? {
            if case .message(let message) = self { return message.textOnly }
            return nil
        }

        /// The text of `message`, read in place for a whole message (no copy of its syntax tree).
        @inlinable public var text: String {
            if case .message(let message) = self { return message.text }
            return message.text
        }
    }

    // The fields in this order pack into the fewest bytes (a catalog holds hundreds of thousands of translations).
    public var content: Content
    public var state: State
    /// Whether `location` is a string that holds the message text exactly as decoded (no JSON escapes), so
    /// a character's column inside it is `location.column + 1 +` the characters before it.
    public var isVerbatim: Bool
    public var location: SourceLocation?

    public init(content: Content, state: State, location: SourceLocation? = nil, isVerbatim: Bool = false) {
        self.content = content
        self.state = state
        self.location = location
        self.isVerbatim = isVerbatim
    }

    /// This translation with its messages keeping only their texts (`Message.deferringTree()`): what a decoded
    /// String Catalog holds once its translations are checked.
    /// Consuming: the translation is changed where it is, not copied (retaining what it holds) and then dropped.
    package consuming func deferringTrees() -> Translation {
        switch content {
        case .message(let message): content = .message(message.deferringTree())
        case .plural(let argument, let forms): content = .plural(argument: argument, forms: forms.mapValues { $0.deferringTree() })
        }
        return self
    }
}

/// An entry's translations kept undecoded (as a publish cache holds them): decoded once, the first time they are
/// asked for, by whichever thread asks first. Which locales they have is known without decoding.
package final class DeferredTranslations: Sendable {
    package typealias Decoded = (translations: LocaleMap<Translation>, devices: LocaleMap<[String: Translation]>)
    /// The locales of the plain translations and of the device variations.
    package let locales: [LocaleID]
    package let deviceLocales: [LocaleID]
    /// The undecoded form, for its keeper (`StringsCacheFile` writes it back as it was).
    package let bytes: FileBytes
    package let range: Range<Int>
    /// Decodes `bytes[range]` with the locales; one function may serve many entries.
    private let decode: @Sendable (_ bytes: FileBytes, _ range: Range<Int>, _ locales: [LocaleID], _ deviceLocales: [LocaleID]) -> Decoded
    private let value = Mutex<Decoded?>(nil)

    package init(
        locales: [LocaleID], deviceLocales: [LocaleID], bytes: FileBytes, range: Range<Int>,
        decode: @escaping @Sendable (FileBytes, Range<Int>, [LocaleID], [LocaleID]) -> Decoded
    ) {
        self.locales = locales
        self.deviceLocales = deviceLocales
        self.bytes = bytes
        self.range = range
        self.decode = decode
    }

    package var decoded: Decoded {
        value.withLock { value in
            if let value { return value }
            let decoded = decode(bytes, range, locales, deviceLocales)
            value = decoded
            return decoded
        }
    }
}
