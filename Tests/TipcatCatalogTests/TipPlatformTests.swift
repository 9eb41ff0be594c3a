import Testing
import TipcatCore
import TipcatLocalization
@testable import TipcatCatalog

/// A tip's `platforms`: per-device texts, image and actions, with their own String Catalog keys.
@Suite struct TipPlatformTests {
    static let catalogJSON = """
        {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr"]}
        """
    static let tip = """
        {
          "id": "MapTip",
          "title": "Show the map",
          "message": "Tap the compass to see {place}.",
          "image": "map",
          "parameters": {"place": "string"},
          "actions": [{"id": "open", "title": "Open"}],
          "platforms": {
            "mac": {"message": "Click the compass to see {place}.", "actions": [{"id": "open", "title": "Open in a window"}]},
            "watch": {"title": "Map", "image": "map.fill", "actions": []}
          }
        }
        """
    static let strings = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "MapTip.mac.message" : {
              "localizations" : {
                "fr" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Cliquez sur la boussole pour voir {place}."
                  }
                }
              }
            },
            "MapTip.message" : {
              "localizations" : {
                "fr" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Touchez la boussole pour voir {place}."
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }
        """

    func load(tip: String, strings: String? = nil) -> LoadResult {
        var files = ["cat/catalog.json": Self.catalogJSON, "cat/tips/MapTip.json": tip]
        if let strings { files["cat/Localizable.xcstrings"] = strings }
        return CatalogLoader(fileSystem: InMemoryFileSystem(files: files)).load(directory: "cat")
    }

    func resolve(_ result: LoadResult, locale: String = "en", device: Device?) throws -> ResolvedTip {
        let tip = try #require(result.catalog.tip(TipID("MapTip")))
        return try TipResolver(catalog: result.catalog).resolve(
            tip, locale: try #require(LocaleID(locale)), parameters: ["place": .string("Alta")], device: device)
    }

    @Test func platformFieldsReplaceTheTipsOwn() throws {
        let result = load(tip: Self.tip, strings: Self.strings)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let tip = try #require(result.catalog.tip(TipID("MapTip")))
        #expect(tip.localizableTexts.map(\.key) == [
            "MapTip.title", "MapTip.message", "MapTip.action.open", "MapTip.mac.message", "MapTip.mac.action.open", "MapTip.watch.title",
        ])
        let mac = try resolve(result, device: .mac)
        #expect(mac.title.text == "Show the map")
        #expect(mac.message?.text == "Click the compass to see Alta.")
        #expect(mac.image == "map")
        #expect(mac.actions.map(\.title.text) == ["Open in a window"])
        let plain = try resolve(result, device: nil)
        #expect(plain.message?.text == "Tap the compass to see Alta.")
        #expect(plain.actions.map(\.title.text) == ["Open"])
        // A device without a platform entry shows the tip's own fields.
        #expect(try resolve(result, device: .iphone) == plain)
        let watch = try resolve(result, device: .watch)
        #expect(watch.title.text == "Map" && watch.image == "map.fill" && watch.actions.isEmpty)
        #expect(watch.message?.text == "Tap the compass to see Alta.")
        // The platform's own String Catalog key is translated.
        #expect(try resolve(result, locale: "fr", device: .mac).message?.text == "Cliquez sur la boussole pour voir Alta.")
        #expect(try resolve(result, locale: "fr", device: nil).message?.text == "Touchez la boussole pour voir Alta.")
    }

    @Test func badPlatformsAreLocated() {
        let tip = """
            {
              "id": "MapTip",
              "title": "Show the map",
              "parameters": {"place": "string"},
              "platforms": {
                "macos": {"title": "x"},
                "watch": {"titel": "Map", "message": 3, "image": ""},
                "tv": {"title": " ", "message": "See {plase}.", "actions": {"id": "a"}},
                "ipad": []
              }
            }
            """
        let lines = load(tip: tip).diagnostics.sortedForOutput().map(\.description)
        #expect(lines == [
            "cat/tips/MapTip.json:6:5: error: unknown platform 'macos' in the platforms of tip 'MapTip'; did you mean 'mac'? (platforms: iphone, ipad, mac, watch, tv, vision) [unknown-key]",
            "cat/tips/MapTip.json:7:15: error: unknown key 'titel' in the watch platform of tip 'MapTip'; did you mean 'title'? [unknown-key]",
            "cat/tips/MapTip.json:7:42: error: 'message' in the watch platform of tip 'MapTip' must be a string, found a number [wrong-type]",
            "cat/tips/MapTip.json:7:54: error: 'image' of the watch platform of tip 'MapTip' is empty; remove it or name a symbol such as 'location.circle' [invalid-value]",
            "cat/tips/MapTip.json:8:21: error: the tv title of MapTip is empty [empty-text]",
            "cat/tips/MapTip.json:8:43: error: '{plase}' in the tv message of MapTip is not a parameter of MapTip; did you mean 'place'? [undeclared-placeholder]",
            "cat/tips/MapTip.json:8:64: error: 'actions' in the tv platform of tip 'MapTip' must be an array, found an object [wrong-type]",
            "cat/tips/MapTip.json:9:13: error: the ipad platform of tip 'MapTip' must be a JSON object, found an array [wrong-type]",
        ])
        // A duplicate platform is reported once, located at the second.
        let duplicate = load(tip: #"{"id": "MapTip", "title": "x", "platforms": {"mac": {}, "mac": {"title": "y"}}}"#)
        #expect(duplicate.diagnostics.map(\.description) == [
            "cat/tips/MapTip.json:1:57: error: duplicate key 'mac' in the platforms of tip 'MapTip' [duplicate-key]",
        ])
    }
}

/// `Tip` keeps its fields in one shared box: copies share it, and a change to one copy never shows in another.
@Suite struct TipValueTests {
    static let tip = Tip(
        id: "A", title: LocalizedText(key: "A.title", source: "Hello", message: nil), rules: [TipRule(source: "true")],
        options: TipOptions(maxDisplayCount: 2), file: "tips/A.json")

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        let original = Self.tip
        var copy = original
        #expect(copy == original)
        copy.rules.append(TipRule(source: "false"))
        copy.options.maxDisplayCount = 3
        copy.title.source = "Bye"
        #expect(original.rules.map(\.source) == ["true"])
        #expect(original.options.maxDisplayCount == 2)
        #expect(original.title.source == "Hello")
        #expect(copy.rules.map(\.source) == ["true", "false"])
        #expect(copy != original)
        var tips = [original, copy]
        tips[0].id = "B"
        #expect(original.id == "A" && tips[0].id == "B" && tips[1].id == "A")
    }

    @Test func equalFieldsMeanEqualTipsAndHashes() {
        var rebuilt = Tip(
            id: "A", title: LocalizedText(key: "A.title", source: "Hello", message: nil), rules: [TipRule(source: "true")],
            options: TipOptions(maxDisplayCount: 2), file: "tips/A.json")
        #expect(rebuilt == Self.tip)
        #expect(Set([rebuilt, Self.tip]).count == 1)
        rebuilt.file = "tips/B.json"
        #expect(rebuilt != Self.tip)
    }
}
