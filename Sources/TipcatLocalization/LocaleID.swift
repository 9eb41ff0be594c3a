/// A locale identifier: the BCP 47 subset `language[-Script][-REGION]` used by catalogs and CLDR.
///
/// - `language`: 2–3 ASCII letters, stored lowercase (`fr`, `ast`).
/// - `script`: 4 ASCII letters, stored title-case (`Hant`).
/// - `region`: 2 ASCII letters, stored uppercase (`CA`), or 3 digits (`419`).
///
/// `_` is accepted as a separator (`pt_PT`, CLDR style); the normalized identifier always uses `-`.
///
/// Only the identifier is stored (the subtags are read from it): catalogs key a dictionary by locale for every
/// string, and one string is a quarter of the four.
public struct LocaleID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The normalized identifier, e.g. `zh-Hant-TW`.
    public private(set) var identifier: String
    /// The language subtag, lowercase.
    public var language: String { String(subtags.language) }
    /// The script subtag, title-case, if any.
    public var script: String? { subtags.script.map(String.init) }
    /// The region subtag, uppercase letters or three digits, if any.
    public var region: String? { subtags.region.map(String.init) }

    /// The identifier's subtags (a script has four letters, a region two letters or three digits).
    private var subtags: (language: Substring, script: Substring?, region: Substring?) {
        let utf8 = identifier.utf8
        let dash = UInt8(ascii: "-")
        guard let first = utf8.firstIndex(of: dash) else { return (identifier[...], nil, nil) }
        let language = identifier[..<first]
        let afterFirst = utf8.index(after: first)
        if let second = utf8[afterFirst...].firstIndex(of: dash) {
            return (language, identifier[afterFirst..<second], identifier[utf8.index(after: second)...])
        }
        let only = identifier[afterFirst...]
        return only.utf8.count == 4 ? (language, only, nil) : (language, nil, only)
    }

    /// Whether text in this locale lays out right to left: a right-to-left script subtag (`Arab`, `Hebr`, `Thaa`,
    /// `Syrc`, `Nkoo`, `Adlm`, `Rohg`), else a language written right to left by default (Arabic, Hebrew, Persian,
    /// Urdu, Pashto, Sindhi, Uyghur, Yiddish, Central Kurdish, Dhivehi), and the pseudo-locale `ar-XB`. A
    /// left-to-right script subtag (`az-Latn`, `pa-Guru`) wins over the language.
    public var isRightToLeft: Bool {
        if let script {
            return ["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg"].contains(script)
        }
        return ["ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "ckb", "dv"].contains(language)
    }

    /// Parses and normalizes `text`; returns nil for anything outside the supported subset.
    ///
    /// `"fr-ca"` → `fr-CA`, `"zh_hant"` → `zh-Hant`; `"english"`, `"e"`, `"en-"`, `"123"` → nil.
    public init?(_ text: String) {
        var subtags: [[UInt8]] = [[]]
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                subtags.append([])
            } else {
                subtags[subtags.count - 1].append(byte)
            }
        }
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(LocaleID.isLetter) else {
            return nil
        }
        let language = LocaleID.string(first.map(LocaleID.lowercased))
        var script: String?
        var region: String?
        var index = 1
        if index < subtags.count, subtags[index].count == 4, subtags[index].allSatisfy(LocaleID.isLetter) {
            let tag = subtags[index]
            script = LocaleID.string([LocaleID.uppercased(tag[0])] + tag.dropFirst().map(LocaleID.lowercased))
            index += 1
        }
        if index < subtags.count {
            let tag = subtags[index]
            if tag.count == 2, tag.allSatisfy(LocaleID.isLetter) {
                region = LocaleID.string(tag.map(LocaleID.uppercased))
            } else if tag.count == 3, tag.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                region = LocaleID.string(tag)
            } else {
                return nil
            }
            index += 1
        }
        guard index == subtags.count else { return nil }
        self.init(language: language, script: script, region: region)
    }

    private init(language: String, script: String?, region: String?) {
        var identifier = language
        if let script { identifier += "-" + script }
        if let region { identifier += "-" + region }
        self.identifier = identifier
    }

    /// English (`en`), the default source language of a new catalog.
    public static let english = LocaleID(language: "en", script: nil, region: nil)

    public var description: String { identifier }

    public static func < (lhs: LocaleID, rhs: LocaleID) -> Bool { lhs.identifier < rhs.identifier }

    /// The locales to try in order, most specific first, ending with `sourceLanguage`.
    ///
    /// `fr-CA` → `[fr-CA, fr, source]`; `zh-Hant-TW` → `[zh-Hant-TW, zh-Hant, zh, source]`. No duplicates;
    /// the source language is appended last unless it is already in the chain.
    public func fallbackChain(sourceLanguage: LocaleID) -> [LocaleID] {
        var chain = truncations
        if !chain.contains(sourceLanguage) { chain.append(sourceLanguage) }
        return chain
    }

    /// This locale and its parents by dropping subtags: `zh-Hant-TW`, `zh-Hant`, `zh`.
    var truncations: [LocaleID] {
        var chain = [self]
        let (language, script, region) = (self.language, self.script, self.region)
        if script != nil, region != nil {
            chain.append(LocaleID(language: language, script: script, region: nil))
        }
        if script != nil || region != nil {
            chain.append(LocaleID(language: language, script: nil, region: nil))
        }
        return chain
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }

    private static func string(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
