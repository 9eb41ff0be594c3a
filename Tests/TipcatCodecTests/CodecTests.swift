import Testing
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization
@testable import TipcatCodec
import TipcatTestSupport

@Suite struct CodecTests {
    @Test func theSampleCatalogRoundTripsThroughItsCanonicalForm() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        let document = CatalogCodec.encode(catalog)
        let decoded = try CatalogCodec.decode(document, origin: "bundle")
        #expect(CatalogCodec.encode(decoded).canonicalBytes == document.canonicalBytes)
        #expect(decoded.settings.name == catalog.settings.name)
        #expect(decoded.settings.supportedLocales == catalog.settings.supportedLocales)
        #expect(decoded.settings.displayFrequency == catalog.settings.displayFrequency)
        #expect(decoded.parameters.map(\.name) == catalog.parameters.map(\.name))
        #expect(decoded.parameters.map(\.defaultValue) == catalog.parameters.map(\.defaultValue))
        #expect(decoded.events.map(\.fields) == catalog.events.map(\.fields))
        #expect(decoded.events.map(\.donationLimit) == catalog.events.map(\.donationLimit))
        #expect(decoded.groups.map(\.tips) == catalog.groups.map(\.tips))
        #expect(decoded.tips.count == catalog.tips.count)
        for original in catalog.tips {
            guard let tip = decoded.tip(original.id) else {
                Issue.record("missing \(original.id)")
                continue
            }
            // Messages are parsed again: the syntax trees must be the same.
            #expect(tip.title.message == original.title.message && tip.title.message != nil)
            #expect(tip.message?.message == original.message?.message)
            #expect(tip.customID?.message == original.customID?.message)
            #expect(tip.title.key == original.title.key)
            #expect(tip.actions.map(\.title.message) == original.actions.map(\.title.message))
            #expect(tip.parameters == original.parameters)
            #expect(tip.rules.map(\.source) == original.rules.map(\.source))
            #expect(tip.options == original.options)
            #expect(tip.republish == original.republish)
            #expect(tip.example == original.example)
            #expect(tip.comment == original.comment)
            #expect(tip.image == original.image)
        }
        #expect(decoded.localizations.entries.count == catalog.localizations.entries.count)
        for (key, entry) in catalog.localizations.entries {
            let other = decoded.localizations.entries[key]
            #expect(other?.comment == entry.comment)
            #expect(other?.translations.mapValues(\.content) == entry.translations.mapValues(\.content), "\(key)")
            #expect(other?.translations.mapValues(\.state) == entry.translations.mapValues(\.state), "\(key)")
        }
        #expect(decoded.root == "bundle")
    }

    @Test func encodingIsDeterministic() {
        let first = CatalogCodec.encode(loadCatalog(sampleCatalogPath)).canonicalBytes
        let second = CatalogCodec.encode(loadCatalog(sampleCatalogPath)).canonicalBytes
        #expect(first == second)
        #expect(ContentTree(catalog: loadCatalog(sampleCatalogPath)).root == ContentTree(catalog: loadCatalog(sampleCatalogPath)).root)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix(#"{"events":["#))
        #expect(!text.contains("\n"))
    }

    @Test func documentAndTreeAgreeOnTheContentHash() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        let pieces = try CatalogPieces(document: CatalogCodec.encode(catalog))
        #expect(ContentTree(pieces: pieces).root == ContentTree(catalog: catalog).root)
    }

    /// A trie of thousands of tips has its top node's subtrees made on every core: the same objects and root as
    /// made one after another.
    @Test func aTrieMadeOnEveryCoreEqualsOneMadeInTurn() {
        let owners = (0..<3000).map { index in
            OwnerObjects(
                name: "Tip\(index)", knownTip: SHA256.hash("tip \(index)"), knownStrings: index % 3 == 0 ? nil : SHA256.hash("strings \(index)"),
                republish: index % 7 == 0 ? "reset" : "keep")
        }
        func made(spreads: Bool) -> (root: SHA256Digest, objects: [SHA256Digest: [UInt8]]) {
            var objects: [SHA256Digest: [UInt8]] = [:]
            let root = ContentTree.trie(owners, depth: 0, spreads: spreads) { object, _ in
                objects[object.digest] = object.bytes
                return object.digest
            }
            return (root, objects)
        }
        let (spread, inTurn) = (made(spreads: true), made(spreads: false))
        #expect(spread.root == inTurn.root)
        #expect(spread.objects == inTurn.objects)
        #expect(inTurn.objects.count > 3000 / ContentTree.leafCapacity, "leaves and nodes")
    }

    /// A memo's records count each tip's translation keys the String Catalog has; a tree made from a memo that knows
    /// every tip encodes none of them and has the same root; a record whose count is wrong is not trusted (the tree
    /// is made by grouping, with the same root).
    @Test func aMemoKnowsEachTipsKeysAndATreeFromItIsTheSame() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        let keys = catalog.tips.indices.map { ByteKey(Array("key \($0)".utf8)) }
        let plain = ContentTree(catalog: catalog)
        let first = ContentTree(catalog: catalog, memo: OwnerObjectsMemo(keys: keys, records: [:]))
        let memo = try #require(first.memo)
        for (index, tip) in catalog.tips.enumerated() {
            var texts: [String] = [tip.id.rawValue + ".customID"]
            tip.forEachLocalizableText { texts.append($0.key) }
            let found = texts.filter { catalog.localizations.entries[$0] != nil }.count
            #expect(memo.records[keys[index]]?.keysFound == found, "\(tip.id)")
        }
        #expect(memo.records.values.reduce(0) { $0 + $1.keysFound } == catalog.localizations.entries.count)

        let second = ContentTree(catalog: catalog, memo: memo)
        #expect(second.root == plain.root && first.root == plain.root)
        #expect(second.objects.count < plain.objects.count, "the tips' objects are known by digest, not made")
        #expect(second.memo == memo)
        // Through the memo file, as the next publish reads it.
        let context = Array("context".utf8)
        let file = StringsCacheFile.encodeOwners(memo.records, context: context)
        #expect(StringsCacheFile.decodeOwners(FileBytes(copying: file), context: context) == memo.records)

        var miscounted = memo
        if let key = keys.first, var record = miscounted.records[key] {
            record.keysFound += 1
            miscounted.records[key] = record
        }
        let third = ContentTree(catalog: catalog, memo: miscounted)
        #expect(third.root == plain.root)
        #expect(third.objects.count == plain.objects.count, "made by grouping: every object made")
    }

    /// A tree whose tips' objects are stored as they are made is the tree made in memory: the same root, and its
    /// objects with those stored are the in-memory tree's, each stored once, a batch at a time; a tip a memo knows
    /// is not made; a store that fails stops the making.
    @Test func aTreeStoringItsObjectsAsTheyAreMadeIsTheTree() throws {
        struct Refused: Error {}
        var catalogs = [("tips", loadCatalog(sampleCatalogPath))]
        var grouped = loadCatalog(sampleCatalogPath)
        grouped.localizations.entries["Nobody.title"] = .init(comment: "a key of no tip")
        catalogs.append(("grouped by key", grouped))
        #expect(ContentTree.ownersByTipKeys(catalogs[0].1) != nil && ContentTree.ownersByTipKeys(grouped) == nil)
        for (what, catalog) in catalogs {
            let plain = ContentTree(catalog: catalog)
            for batch in [1, 4, 1000] {
                var stored: [SHA256Digest: [UInt8]] = [:]
                var batches = 0
                let tree = try ContentTree(catalog: catalog, memo: nil, batch: batch) { objects in
                    batches += 1
                    for object in objects {
                        #expect(stored[object.digest] == nil, "\(what): stored twice")
                        #expect([.tip, .strings].contains(object.kind))
                        stored[object.digest] = object.bytes
                    }
                }
                #expect(tree.root == plain.root, "\(what), \(batch) a batch")
                #expect(batches == (catalog.tips.count + (what == "tips" ? 0 : 1) + batch - 1) / batch, "\(what), \(batch) a batch")
                var all = stored
                for (digest, object) in tree.objects {
                    #expect(![.tip, .strings].contains(object.kind), "\(what): kept in memory")
                    all[digest] = object.bytes
                }
                #expect(all == plain.objects.mapValues(\.bytes), "\(what), \(batch) a batch")
            }
        }
        // A memo that knows every tip: nothing is made, so nothing is stored.
        let catalog = catalogs[0].1
        let keys = catalog.tips.indices.map { ByteKey(Array("key \($0)".utf8)) }
        let memo = try #require(ContentTree(catalog: catalog, memo: OwnerObjectsMemo(keys: keys, records: [:])).memo)
        var storedWithMemo = 0
        let known = try ContentTree(catalog: catalog, memo: memo, batch: 4) { storedWithMemo += $0.count }
        #expect(known.root == ContentTree(catalog: catalog).root && storedWithMemo == 0)
        // ... and makes them again when a store lacks them (one that never had them).
        for (digest, object) in ContentTree(catalog: catalog).objects where [.tip, .strings].contains(object.kind) {
            #expect(known.object(digest)?.bytes == object.bytes, "\(object.kind) \(digest.shortHex())")
        }
        // A store that fails: its error, and no batch after it.
        var calls = 0
        #expect(throws: Refused.self) {
            _ = try ContentTree(catalog: catalog, memo: nil, batch: 4) { _ in
                calls += 1
                throw Refused()
            }
        }
        #expect(calls == 1)
    }

    @Test func edgeValuesRoundTrip() throws {
        let types: [ValueType] = [
            .double, .double, .double, .double, .date, .date, .list(.record([.init("id", .string), .init("at", .date)])),
            .set(.int), .record([.init("z", .bool), .init("a", .list(.string))]), .double,
        ]
        let values: [Value] = [
            .double(2.0), .double(.infinity), .double(-.infinity), .double(1e-7),
            .date(Timestamp(secondsSince1970: 1_767_258_000.25)), .date(Timestamp(secondsSince1970: 1_767_258_000.000_123)),
            .list([.record(["id": .string("a"), "at": .date(Timestamp(secondsSince1970: 0))])]),
            .set([.int(3), .int(1)]), .record(["z": .bool(true), "a": .list([.string("x\"y\n")])]), .int(3),
        ]
        for (type, value) in zip(types, values) {
            let encoded = ValueCodec.encode(value)
            let text = encoded.serialized(sortedKeys: true)
            let reparsed = try JSONDocument.parse(text: text).root.value
            let decoded = try ValueCodec.decodeValue(JSONReader(reparsed, path: ""), as: type)
            #expect(decoded == value, "\(value) as \(type) → \(text)")
        }
        let nan = try ValueCodec.decodeValue(JSONReader(ValueCodec.encode(.double(.nan)), path: ""), as: .double)
        if case .double(let number) = nan { #expect(number.isNaN) } else { Issue.record("NaN did not round-trip") }
        for type in types + [.list(.list(.int)), .record([.init("r", .record([.init("x", .int)]))])] {
            #expect(try ValueCodec.decodeType(JSONReader(ValueCodec.encode(type), path: "")) == type)
        }
        for span in [TimeSpan(seconds: 300), TimeSpan(seconds: 5400), TimeSpan(seconds: 1e-7), TimeSpan(seconds: 0.1 + 0.2)] {
            #expect(try ValueCodec.decodeSpan(JSONReader(ValueCodec.encode(span), path: "")) == span)
        }
    }

    @Test func malformedDocumentsFailWithAPath() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        guard case .object(var root) = CatalogCodec.encode(catalog) else { return }
        root.members.removeAll { $0.key == "settings" }
        #expect(throws: CatalogDecodingError("missing 'settings'", at: "")) {
            _ = try CatalogCodec.decode(.object(root), origin: "x")
        }
        let broken: JSONValue = ["format": "tipcat-catalog", "formatVersion": 2]
        do {
            _ = try CatalogCodec.decode(broken, origin: "x")
            Issue.record("a newer format must be refused")
        } catch {
            #expect(error.path == "formatVersion")
            #expect(error.message.contains("upgrade tipcat"))
        }
        let badMessage = try JSONDocument.parse(text: #"{"id": "T", "title": "{oops"}"#).root.value
        #expect(throws: CatalogDecodingError.self) {
            _ = try CatalogCodec.decodeTip(JSONReader(badMessage, path: "tips[T]"), republish: .keep, origin: "x")
        }
    }

    @Test func editingOneTipOfALargeCatalogChangesAFewSmallObjects() throws {
        let scratch = try TemporaryDirectory()
        try writeGeneratedCatalog(at: scratch.file("Catalog"), tips: 600)
        let before = ContentTree(catalog: loadCatalog(scratch.file("Catalog")))
        try scratch.edit("Catalog/tips/Tip123.json", replacing: "Message 123", with: "A new message 123")
        let after = ContentTree(catalog: loadCatalog(scratch.file("Catalog")))
        #expect(before.root != after.root)
        let added = after.objects.keys.filter { before.objects[$0] == nil }
        let bytes = added.reduce(0) { $0 + (after.objects[$1]?.bytes.count ?? 0) }
        let kinds = added.compactMap { after.objects[$0]?.kind }.sorted { $0.rawValue < $1.rawValue }
        // the tip, its leaf, the inner node above the leaf, the tips root and the catalog root
        #expect(kinds == [.catalog, .leaf, .node, .node, .tip] || kinds == [.catalog, .leaf, .node, .tip], "\(kinds)")
        #expect(bytes < 8_000, "\(bytes) new bytes")
    }
}

@Suite struct CanonicalWriterTests {
    /// The fast byte encoder and the general `JSONValue` encoder agree byte for byte.
    @Test func directBytesMatchTheGeneralEncoder() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        for tip in catalog.tips {
            #expect(CatalogCodec.tipBytes(tip) == CatalogCodec.encode(tip).canonicalBytes, "\(tip.id)")
        }
        for (owner, entries) in CatalogCodec.stringsByOwner(catalog.localizations, tipIDs: Set(catalog.tips.map(\.id.rawValue))) {
            #expect(CatalogCodec.stringsBytes(entries) == CatalogCodec.encodeStrings(entries).canonicalBytes, "\(owner)")
        }
        let pieces = try CatalogPieces(document: CatalogCodec.encode(catalog))
        #expect(ContentTree(pieces: pieces).objects.keys.sorted() == ContentTree(catalog: catalog).objects.keys.sorted())
    }

    @Test func escapesMatchTheGeneralWriter() {
        var random = SeededGenerator(seed: 2028)
        let alphabet: [Unicode.Scalar] = ["a", "\"", "\\", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}",
                                          "\u{7F}", "é", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "日", "😀", "/"]
        for length in 0..<200 {
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            var writer = CanonicalWriter()
            writer.string(text)
            #expect(writer.bytes == Array(JSONValue.string(text).serialized().utf8), "\(Array(text.unicodeScalars))")
        }
    }
}

@Suite struct TrieObjectTests {
    /// Leaves and nodes written directly are the canonical JSON of the values they stand for: owners in any order,
    /// equal names, names that need escapes or sort by bytes, and entries with and without each digest.
    @Test func leavesAndNodesAreTheCanonicalJSONOfTheirValues() {
        var random = SeededGenerator(seed: 0x7E1F)
        let names = ["A", "a", "B", "Tip.1", "Tip\u{0}x", "Tip\"q", "日本Tip", "Ünïcode", "Z", "a", "é", "e\u{301}", "😀Tip", ""]
        func digest() -> SHA256Digest { SHA256.hash(Array("\(random.next())".utf8)) }
        for count in 0..<40 {
            let owners = (0..<count).map { _ in
                OwnerObjects(
                    name: names[Int(random.next() % UInt64(names.count))],
                    knownTip: random.next() % 4 == 0 ? nil : digest(), knownStrings: random.next() % 3 == 0 ? nil : digest(),
                    republish: random.next() % 5 == 0 ? "run \(random.next() % 9) \"again\"" : nil)
            }
            let leaf = JSONValue.object([("leaf", .object(owners.map { ($0.name, $0.entry) }))])
            #expect(ContentTree.leaf(owners).bytes == leaf.canonicalBytes, "\(owners.map(\.name))")
            let subtrees = (0..<16).filter { _ in random.next() % 2 == 0 }.map { (nibble: $0, digest: digest()) }
            let node = JSONValue.object([("node", .object(subtrees.map { (String($0.nibble, radix: 16), .string($0.digest.hex)) }))])
            #expect(ContentTree.nodeBytes(subtrees) == node.canonicalBytes)
        }
    }
}

@Suite struct ContentTreeTests {
    /// Both ways of finding each tip's translations build the same tree.
    @Test func tipKeyLookupAndGroupingAgree() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        let fast = try #require(ContentTree.ownersByTipKeys(catalog))
        let slow = ContentTree.ownersByGrouping(catalog)
        #expect(fast.map(\.name).sorted() == slow.map(\.name).sorted())
        let slowByName = Dictionary(uniqueKeysWithValues: slow.map { ($0.name, $0) })
        for owner in fast {
            #expect(owner.entry == slowByName[owner.name]?.entry, "\(owner.name)")
        }
    }
}

/// String Catalog device variations survive publishing (`engine show --device` reads a published catalog).
@Suite struct DeviceVariationCodecTests {
    @Test func deviceVariationsRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.sampleCatalog()
        try directory.write("Catalog/Localizable.xcstrings",
                            try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/xcstrings/device-variations.xcstrings", encoding: .utf8))
        let catalog = loadCatalog(path)
        let entry = try #require(catalog.localizations.entries["FindTrailheadTip.message"])
        #expect(entry.devices[try #require(LocaleID("fr"))]?.keys.sorted() == ["iphone", "mac", "other"])
        let document = CatalogCodec.encode(catalog)
        let decoded = try CatalogCodec.decode(document, origin: "bundle")
        #expect(CatalogCodec.encode(decoded).canonicalBytes == document.canonicalBytes)
        for (key, original) in catalog.localizations.entries {
            let other = try #require(decoded.localizations.entries[key])
            #expect(other.devices.mapValues { $0.mapValues(\.content) } == original.devices.mapValues { $0.mapValues(\.content) }, "\(key)")
            #expect(other.devices.mapValues { $0.mapValues(\.state) } == original.devices.mapValues { $0.mapValues(\.state) }, "\(key)")
        }
        for (owner, entries) in CatalogCodec.stringsByOwner(catalog.localizations, tipIDs: Set(catalog.tips.map(\.id.rawValue))) {
            #expect(CatalogCodec.stringsBytes(entries) == CatalogCodec.encodeStrings(entries).canonicalBytes, "\(owner)")
        }
    }

    @Test func platformsRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.sampleCatalog()
        try directory.write("Catalog/tips/ShowLocationTip.json", """
            {"id": "ShowLocationTip", "title": "Show your location", "message": "Tap the compass.", "image": "location.circle",
             "actions": [{"id": "open", "title": "Open"}],
             "platforms": {"watch": {"title": "Location", "actions": []},
                           "mac": {"message": "Click the compass.", "image": "macwindow", "actions": [{"id": "open", "title": "Open a window"}]}}}
            """)
        let catalog = loadCatalog(path)
        let tip = try #require(catalog.tip(TipID("ShowLocationTip")))
        #expect(tip.platforms.count == 2)
        #expect(CatalogCodec.tipBytes(tip) == CatalogCodec.encode(tip).canonicalBytes)
        let document = CatalogCodec.encode(catalog)
        let decoded = try #require(try CatalogCodec.decode(document, origin: "bundle").tip(TipID("ShowLocationTip")))
        #expect(decoded.platforms.mapValues(\.title?.source) == tip.platforms.mapValues(\.title?.source))
        #expect(decoded.platforms.mapValues(\.message?.message) == tip.platforms.mapValues(\.message?.message))
        #expect(decoded.platforms.mapValues(\.image) == tip.platforms.mapValues(\.image))
        #expect(decoded.platforms.mapValues { $0.actions?.map(\.title.key) } == tip.platforms.mapValues { $0.actions?.map(\.title.key) })
        #expect(decoded.localizableTexts.map(\.key) == tip.localizableTexts.map(\.key))
        // A tip without platforms encodes as before (its content hash does not change).
        #expect(!String(decoding: CatalogCodec.tipBytes(try #require(catalog.tip(TipID("NewTrailTip")))), as: UTF8.self).contains("platforms"))
    }
}

@Suite struct OptionalTypeCodecTests {
    /// Optional types keep their text (`string?`) or, around a record, an `optional` object; values of them are
    /// values of the wrapped type, and a record may leave an optional field out.
    @Test func optionalTypesAndValuesRoundTrip() throws {
        let record = ValueType.record([.init("id", .string), .init("grade", .optional(.int))])
        let types: [ValueType] = [.optional(.string), .optional(.list(.int)), record, .optional(record), .list(record)]
        for type in types {
            #expect(try ValueCodec.decodeType(JSONReader(ValueCodec.encode(type), path: "")) == type, "\(type)")
        }
        #expect(ValueCodec.encode(.optional(.set(.date))) == .string("set<date>?"))
        let withoutGrade = Value.record(["id": .string("a")])
        let text = ValueCodec.encode(withoutGrade).serialized(sortedKeys: true)
        #expect(try ValueCodec.decodeValue(JSONReader(try JSONDocument.parse(text: text).root.value, path: ""), as: record) == withoutGrade)
        #expect(try ValueCodec.decodeValue(JSONReader(ValueCodec.encode(.double(2.5)), path: ""), as: .optional(.double)) == .double(2.5))
        #expect(throws: CatalogDecodingError.self) {
            try ValueCodec.decodeType(JSONReader(.object([("optional", .string("int?"))]), path: ""))
        }
    }
}

extension OwnerObjects {
    /// The value of the owner's entry in a leaf of the tips tree (what `ContentTree.leaf` writes directly):
    /// `{"republish": …, "strings": hash, "tip": hash}`, absent parts left out.
    var entry: JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let republish { pairs.append(("republish", .string(republish))) }
        if let strings { pairs.append(("strings", .string(strings.hex))) }
        if let tip { pairs.append(("tip", .string(tip.hex))) }
        return .object(pairs)
    }
}
