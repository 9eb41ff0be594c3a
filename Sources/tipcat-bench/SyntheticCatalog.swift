import Foundation
import TipcatCore
import TipcatLocalization

/// Writes a deterministic synthetic catalog in the real format: N tips × M locales.
///
/// Same arguments, same bytes: the generator uses its own seeded PRNG, never the system's.
struct SyntheticCatalog {
    var tips: Int
    var locales: Int
    var seed: UInt64 = 0x7469_7063_6174  // "tipcat"

    static let localePool = ["en", "fr", "de", "ja", "ar", "pl", "es", "it", "pt-BR", "ru", "zh-Hans", "ko", "nl", "sv", "tr", "uk"]
    /// A phrase in each locale's own script appended to its translations, so rendering and wrapping meet wide
    /// text (CJK, Hangul), right-to-left text (Arabic), emoji and combining marks, as real catalogs do.
    static let phrases: [String: String] = [
        "ja": "地図とコンパスで近くの道を探して、新しい景色を見つけましょう。🧭",
        "zh-Hans": "用地图和指南针寻找附近的小路，发现新的风景。🌲",
        "ko": "지도와 나침반으로 근처 길을 찾아보세요 🥾",
        "ar": "استكشف المسارات القريبة باستخدام الخريطة والبوصلة 🏔\u{FE0F}",
        "fr": "De\u{0301}couvrez les sentiers pre\u{0300}s de chez vous 🌲",
        "de": "Entdecke die Wege in deiner Nähe ✨",
        "ru": "Откройте карту и найдите тропы рядом 🗺\u{FE0F}",
    ]
    static let words = [
        "trail", "map", "compass", "summit", "river", "forest", "backyard", "bird", "feeder", "route", "ridge", "valley",
        "lake", "camp", "sunrise", "shelter", "bridge", "meadow", "canyon", "glacier",
    ]

    /// Writes the catalog into `directory` (created; existing files are replaced). Returns the number of files.
    func write(to directory: String) throws -> Int {
        let manager = FileManager.default
        try? manager.removeItem(atPath: directory)
        try manager.createDirectory(atPath: directory + "/tips", withIntermediateDirectories: true)
        var random = SeededGenerator(seed: seed)
        let localeIDs = Array(SyntheticCatalog.localePool.prefix(max(1, min(locales, SyntheticCatalog.localePool.count))))
        var files = 0
        func put(_ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + path))
            files += 1
        }
        let eventCount = 50
        let parameterCount = 50
        try put("catalog.json", """
            {
              "name": "Synthetic \(tips)x\(localeIDs.count)",
              "schemaVersion": 1,
              "sourceLanguage": "en",
              "supportedLocales": [\(localeIDs.map { "\"\($0)\"" }.joined(separator: ", "))],
              "displayFrequency": "daily"
            }

            """)
        try put("parameters.json", "{\n  \"parameters\": [\n" + (0..<parameterCount).map { index in
            index % 2 == 0
                ? "    {\"name\": \"flag\(index)\", \"type\": \"bool\", \"default\": false}"
                : "    {\"name\": \"level\(index)\", \"type\": \"int\", \"default\": 0, \"lifetime\": \"transient\"}"
        }.joined(separator: ",\n") + "\n  ]\n}\n")
        try put("events.json", "{\n  \"events\": [\n" + (0..<eventCount).map { index in
            "    {\"id\": \"event-\(index)\", \"fields\": {\"itemID\": \"int\", \"name\": \"string\", \"isFavorite\": \"bool\"}}"
        }.joined(separator: ",\n") + "\n  ]\n}\n")
        let groupSize = 5
        try put("groups.json", "{\n  \"groups\": [\n" + stride(from: 0, to: tips - tips % groupSize, by: groupSize * 4).map { start in
            "    {\"id\": \"group\(start)\", \"priority\": \"\(start % 8 == 0 ? "ordered" : "firstAvailable")\", \"tips\": ["
                + (start..<start + groupSize).map { "\"Tip\($0)\"" }.joined(separator: ", ") + "]}"
        }.joined(separator: ",\n") + "\n  ]\n}\n")

        var strings: [(String, String)] = []  // key → entry JSON
        for index in 0..<tips {
            let a = SyntheticCatalog.words[Int(random.next() % 20)]
            let b = SyntheticCatalog.words[Int(random.next() % 20)]
            let event = Int(random.next() % UInt64(eventCount))
            let flag = Int(random.next() % UInt64(parameterCount / 2)) * 2
            let hasPlural = index % 3 == 0
            let title = "Try the \(a) \(b) view"
            let message = hasPlural
                ? "You have {count, plural, one {# saved \(a)} other {# saved \(a)s}} near {place.name}."
                : "Tap the \(b) button to see every \(a) near {place.name}."
            let rules = [
                "$flag\(flag)",
                "#event-\(event).within(\(1 + random.next() % 7)d).where(isFavorite == true).count >= \(1 + random.next() % 5)",
            ]
            try put("tips/Tip\(index).json", """
                {
                  "id": "Tip\(index)",
                  "customID": "Tip\(index)-{place.id}",
                  "title": "\(title)",
                  "message": "\(message)",
                  "image": "star",
                  "actions": [{"id": "open", "title": "Open \(a)"}, {"id": "later", "title": "Later"}],
                  "parameters": {"place": {"id": "string", "name": "string"}, "count": "int"},
                  "rules": [\(rules.map { "\"\($0)\"" }.joined(separator: ", "))],
                  "options": {"maxDisplayCount": \(1 + random.next() % 5)},
                  "comment": "Synthetic tip \(index).",
                  "example": {"place": {"id": "p\(index)", "name": "Place \(index)"}, "count": \(random.next() % 10)}
                }

                """)
            let texts: [(String, String)] = [
                ("Tip\(index).title", title), ("Tip\(index).message", message),
                ("Tip\(index).action.open", "Open \(a)"), ("Tip\(index).action.later", "Later"),
            ]
            for (key, source) in texts {
                var localizations: [String] = []
                for locale in localeIDs.dropFirst() {
                    var value: String
                    if source.contains("plural"), let id = LocaleID(locale) {
                        let forms = PluralRules.categories(for: id).map { "\($0.rawValue) {# \(locale) \(a) \($0.rawValue)}" }
                        value = "[\(locale)] {count, plural, \(forms.joined(separator: " "))} {place.name}."
                    } else {
                        value = "[\(locale)] \(source)"
                    }
                    if let phrase = SyntheticCatalog.phrases[locale] { value += " " + phrase }
                    localizations.append(
                        "        \"\(locale)\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            \"value\" : \"\(value)\"\n          }\n        }")
                }
                strings.append((key, "    \"\(key)\" : {\n      \"extractionState\" : \"manual\",\n      \"localizations\" : {\n"
                    + localizations.joined(separator: ",\n") + "\n      }\n    }"))
            }
        }
        strings.sort { $0.0 < $1.0 }
        try put("Localizable.xcstrings", "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"
            + strings.map(\.1).joined(separator: ",\n") + "\n  },\n  \"version\" : \"1.0\"\n}\n")
        return files
    }
}
