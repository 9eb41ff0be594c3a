public import TipcatCore
public import TipcatJSON
public import TipcatLocalization
import TipcatRules

/// What loading a catalog produced: a best-effort model (never nil) and every finding.
public struct LoadResult: Sendable {
    public var catalog: Catalog
    /// Sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// How many files were read and how many bytes they held (for `validate` summaries and benchmarks).
    public var filesRead: Int
    public var bytesRead: Int
    /// The parsed `Localizable.xcstrings`, with its bytes, when the loader `keepsStrings` (nil when it does not,
    /// or there is none).
    public var stringsDocument: JSONDocument?
    /// `stringsDocument`'s root.
    public var strings: JSONNode? { stringsDocument?.root }
    /// With a `stringsCache`: the content fingerprints of what was read, for caches of later work (nil without).
    public var fingerprints: LoadFingerprints?
}

/// What a load read, by content (`StringsDecodingCache.fingerprint`).
public struct LoadFingerprints: Sendable, Hashable {
    /// The fingerprint of each tip's file (of its path and bytes), in the order of the catalog's tips.
    public var tips: [[UInt8]]
    /// The fingerprint of the String Catalog's bytes (empty when there is none), then the context it was
    /// decoded in: its path and the settings and declarations files.
    public var shared: [UInt8]

    public init(tips: [[UInt8]], shared: [UInt8]) {
        self.tips = tips
        self.shared = shared
    }
}

/// Reads a catalog directory into a `Catalog`, never stopping at the first problem.
///
/// Every file is parsed with source positions; every finding carries its file, line and column.
/// Checks that need the text of a single file (types, messages, rules) run here; checks across files are
/// lint rules (`CatalogLintRule`), run at the end.
public struct CatalogLoader: Sendable {
    public var fileSystem: any CatalogFileSystem
    public var lintRules: [any CatalogLintRule]
    /// Only errors are wanted (`render` refuses a catalog with errors and shows no warnings): lint rules and
    /// content rules whose findings are not errors at their level in `lint.json` are not run. The other checks
    /// run as always; the result's diagnostics then lack those rules' warnings and notes.
    public var checksOnlyForErrors = false
    /// The rule ids `lint.json`'s `"rules"` may name; others get an `unknown-rule` warning with a did-you-mean.
    /// The ids of the catalog's own content rules and plugin ids (`name/rule`, with a `/`) are always accepted.
    /// nil skips the check.
    public var knownRuleIDs: Set<String>?
    /// Called with the decoded catalog, and the fingerprints of what was read (with a `stringsCache`, as the result's
    /// `fingerprints`), just before the checks across files run — for work that can go on meanwhile (`validate` sends
    /// the catalog to lint plugins here; `publish` makes its content tree). The result's catalog is this one.
    public var whenDecoded: (@Sendable (Catalog, LoadFingerprints?) -> Void)?
    /// Whether the result keeps the parsed String Catalog (`LoadResult.strings`), for commands that read its entries
    /// as they are written; otherwise it is released once decoded.
    public var keepsStrings = false
    /// Where what decoding the String Catalog produced is kept between loads (not used when the loader
    /// `keepsStrings`): an unchanged file is then not parsed again, and only the entries whose tip file changed
    /// are decoded and checked again. The result is the same as without a cache.
    public var stringsCache: (any StringsDecodingCache)?
    /// Whose translations the String Catalog's entries are decoded and checked for (`TranslationScope`): every
    /// locale's unless told. A loader with a `stringsCache` decodes every locale's (the cache keeps whole decodings).
    public var translations: TranslationScope = .everyLocale

    /// The translations a load decodes and checks.
    public enum TranslationScope: Sendable, Equatable {
        /// Every locale's (what `validate` and `publish` need).
        case everyLocale
        /// Only those a rendering in the locale can show: the locale's, its fallbacks' and the source language's
        /// (nil: the source language's alone). The others are left out of the table as if the String Catalog
        /// lacked them, and nothing is reported about them (`render` shows one locale).
        case shownIn(LocaleID?)

        /// The locales whose translations are decoded; nil for all.
        func locales(sourceLanguage: LocaleID) -> Set<LocaleID>? {
            switch self {
            case .everyLocale: nil
            case .shownIn(let locale): Set((locale ?? sourceLanguage).fallbackChain(sourceLanguage: sourceLanguage))
            }
        }
    }

    /// The files of a catalog directory.
    public enum FileName {
        public static let catalog = "catalog.json"
        public static let parameters = "parameters.json"
        public static let events = "events.json"
        public static let groups = "groups.json"
        public static let tips = "tips"
        public static let strings = "Localizable.xcstrings"
        /// Optional house style: content rules and per-rule levels (`LintConfiguration`).
        public static let lint = "lint.json"
    }

    /// The ids `knownRuleIDs` defaults to: the built-in lint rules'.
    public static var builtInRuleIDs: Set<String> { Set(LintRegistry.builtIn.map(\.description.id)) }

    public init(
        fileSystem: any CatalogFileSystem = DiskFileSystem(), lintRules: [any CatalogLintRule] = LintRegistry.builtIn,
        knownRuleIDs: Set<String>? = CatalogLoader.builtInRuleIDs
    ) {
        self.fileSystem = fileSystem
        self.lintRules = lintRules
        self.knownRuleIDs = knownRuleIDs
    }

    public func load(directory: String) -> LoadResult {
        let sink = DiagnosticSink()
        let fallbackLocale = LocaleID.english
        var catalog = Catalog(
            root: directory,
            settings: CatalogSettings(name: "", sourceLanguage: fallbackLocale, supportedLocales: [fallbackLocale]),
            localizations: LocalizationTable(sourceLanguage: fallbackLocale))
        guard fileSystem.isDirectory(directory) else {
            let reason = fileSystem.fileExists(directory) ? "is not a directory" : "does not exist"
            sink.add(.catalogNotFound(directory, reason: reason))
            return LoadResult(catalog: catalog, diagnostics: sink.diagnostics, filesRead: 0, bytesRead: 0)
        }

        // The tip files, in name order.
        let tipsDirectory = joinPath(directory, FileName.tips)
        var tipFiles: [String] = []
        // Whether the listing saw each tip file as a regular file (read without asking its kind again).
        var tipFilesListedAsRegular: [Bool] = []
        if fileSystem.fileExists(tipsDirectory) {
            if let listed = fileSystem.listFiles(tipsDirectory) {
                for file in listed.sorted(by: { $0.name < $1.name }) {
                    let name = file.name
                    let path = joinPath(tipsDirectory, name)
                    if name.hasSuffix(".json") {
                        tipFiles.append(path)
                        tipFilesListedAsRegular.append(file.isRegular)
                    } else if !name.hasPrefix(".") {
                        sink.add(.unexpectedFile(path))
                    }
                }
            } else {
                sink.add(.tipsNotADirectory(tipsDirectory))
            }
        }
        // The String Catalog is usually the largest file: parse it first, alongside the tips.
        let stringsPath = joinPath(directory, FileName.strings)
        let hasStrings = fileSystem.fileExists(stringsPath)
        // Unless it is kept whole, its entries are parsed one by one as they are decoded (see `decodeStrings`).
        // With a cache, the String Catalog is only mapped here: the cache may hold what it decodes to.
        let cache = keepsStrings ? nil : stringsCache
        // With a cache, the String Catalog is mapped first, then hashed on another thread while the tips are read,
        // and what the cache holds for that hash read there too (see `stringsKept`).
        let mappedStrings = hasStrings && cache != nil ? parse(stringsPath, readingOnly: true) : nil
        // The context an entry's or a tip's decoding depends on besides its own file: the settings and
        // declarations, the String Catalog's path.
        var stringsContext = Array(stringsPath.utf8) + [0]
        var filesRead = 0
        var bytesRead = 0
        func take(_ parsed: ParsedFile) -> JSONDocument? {
            filesRead += 1
            bytesRead += parsed.byteCount
            switch parsed.outcome {
            case .parsed(let document): return document
            case .read, .mapped: return nil
            case .failed(let diagnostic):
                sink.add(diagnostic)
                return nil
            }
        }
        func parseOptional(_ name: String, required: Bool = false) -> JSONDocument? {
            let path = joinPath(directory, name)
            guard fileSystem.fileExists(path) else {
                if required {
                    sink.add(.missingFile(name, at: path))
                }
                return nil
            }
            let parsed = parse(path)
            if let cache, [FileName.catalog, FileName.parameters, FileName.events].contains(name) {
                // Whether the file is there and what it holds (a file that does not parse is decoded as none).
                stringsContext += Array(name.utf8) + [1] + cache.fingerprint(parsed.bytes ?? [])
            }
            return take(parsed)
        }

        // 1. Settings and declarations (small: read first, as the tips' context).
        if let document = parseOptional(FileName.catalog, required: true) {
            if let settings = SettingsDecoder(document: document, sink: sink).decode() { catalog.settings = settings }
            sink.reportDuplicateKeys(in: document, what: FileName.catalog)
        }
        catalog.localizations.sourceLanguage = catalog.settings.sourceLanguage
        if let document = parseOptional(FileName.parameters) {
            catalog.parameters = DeclarationDecoder(document: document, sink: sink).parameters()
            sink.reportDuplicateKeys(in: document, what: FileName.parameters)
        }
        if let document = parseOptional(FileName.events) {
            catalog.events = DeclarationDecoder(document: document, sink: sink).events()
            sink.reportDuplicateKeys(in: document, what: FileName.events)
        }

        // The String Catalog's fingerprint, and what the cache holds for it in this context (nil: nothing), made on
        // another thread while the tips are read: its decoding needs the tips only once it is read. When the cache
        // has nothing for it, the file is parsed there too (its entries left for the decoding), which would
        // otherwise keep one core waiting on the other once the tips are decoded.
        let stringsKept: BackgroundValue<(file: [UInt8], kept: StringsDecoding?, parsed: ParsedFile?)>? =
            if let cache, case .mapped(let bytes)? = mappedStrings?.outcome {
                BackgroundValue { [stringsContext, self] in
                    func parsed() -> ParsedFile { parseDocument(SourceFile(path: stringsPath, mapped: bytes), deferringEntries: true) }
                    // Nothing kept for it (a first publish): fingerprinted on a thread of its own while it is parsed
                    // here, rather than one after the other while the tips are decoded, with a core left waiting.
                    if !cache.mayHaveDecoding(ofFile: stringsPath) {
                        // Its pages are read by both at once: given back once parsed (`parseDocument`), not as hashed.
                        let file = BackgroundValue { cache.fingerprint(bytes.buffer) }
                        let document = parsed()
                        return (file.value, nil, document)
                    }
                    let file = cache.fingerprint(bytes)
                    let kept = cache.decoding(ofFile: stringsPath, fingerprint: file, context: stringsContext)
                    return (file, kept, kept == nil ? parsed() : nil)
                }
            } else {
                nil
            }

        // 2. Read and parse every other file; tips in parallel (JSON parsing dominates load time). A tip file whose
        // bytes the cache decoded before is only read.
        let kept = cache?.tipDecodings(ofCatalog: directory, context: stringsContext)
        if kept != nil { PhaseTrace.mark("load: tip files' decodings read from the cache") }
        let parsesStrings = hasStrings && mappedStrings == nil
        var parsedTips = parseAll(
            (parsesStrings ? [stringsPath] : []) + tipFiles, deferringEntriesOf: keepsStrings ? nil : stringsPath,
            fingerprints: cache, kept: kept?.byPath ?? [:], listedAsRegular: (parsesStrings ? [false] : []) + tipFilesListedAsRegular)
        let parsedStrings = parsesStrings ? parsedTips.removeFirst() : mappedStrings
        // Each tip file's fingerprint (with a cache), by index in `tipFiles`.
        let fileFingerprints = tipFiles.indices.map { parsedTips[$0].fingerprint }

        PhaseTrace.mark("load: files read and parsed")
        // 3. Tips: first collect every id (rules may name other tips), then decode with the full environment.
        var tipDocuments: [JSONDocument?] = []
        var keptTips: [TipDecoding?] = []
        var tipIDs = Set<String>()
        tipDocuments.reserveCapacity(tipFiles.count)
        keptTips.reserveCapacity(tipFiles.count)
        tipIDs.reserveCapacity(tipFiles.count)
        for index in tipFiles.indices {
            let (path, parsed) = (tipFiles[index], parsedTips[index])
            let document = take(parsed)
            let keptTip = parsed.isRead ? kept?.byPath[path] : nil
            if let id = document.flatMap(Self.rawID) ?? keptTip?.id { tipIDs.insert(id) }
            tipDocuments.append(document)
            keptTips.append(keptTip)
        }
        // What was kept was decoded with the same tip IDs, or else it is parsed and decoded now.
        let idsFingerprint = cache.map { cache -> [UInt8] in
            var ids: [UInt8] = []
            for id in tipIDs.sorted() {
                ids += id.utf8
                ids.append(0)
            }
            return cache.fingerprint(ids)
        } ?? []
        if let kept, kept.tipIDs != idsFingerprint {
            let (files, read) = (tipFiles, parsedTips)
            let again = concurrentChunks(count: files.count, chunkSize: 64) { range in
                range.map { index -> ParsedFile? in
                    guard read[index].isRead, let bytes = read[index].bytes else { return nil }
                    return parseDocument(files[index], bytes: bytes, deferringEntries: false)
                }
            }.joinedArrays()
            for (index, parsed) in again.enumerated() {
                guard let parsed else { continue }
                keptTips[index] = nil
                switch parsed.outcome {
                case .parsed(let document): tipDocuments[index] = document
                case .failed(let diagnostic): sink.add(diagnostic)
                case .read, .mapped: break
                }
            }
        }
        parsedTips.removeAll()
        let environment = RuleEnvironment(
            appParameters: Dictionary(catalog.parameters.map { ($0.name.rawValue, $0.type) }, uniquingKeysWith: { a, _ in a }),
            events: Dictionary(
                catalog.events.map { event in
                    (event.id.rawValue, Dictionary(event.fields.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a }))
                }, uniquingKeysWith: { a, _ in a }),
            tipIDs: tipIDs,
            donationLimits: Dictionary(catalog.events.map { ($0.id.rawValue, $0.donationCountLimit) }, uniquingKeysWith: { a, _ in a }))
        let messageChecker = MessageChecker(sourceLanguage: catalog.settings.sourceLanguage)
        let decodedTips = decodeTips(tipDocuments, environment: environment, messages: messageChecker)
        // Each tip file's decoding, starting from what was kept: only those made again are set (not tens of thousands).
        var decodings: [String: TipDecoding] = cache == nil ? [:] : kept?.byPath ?? [:]
        var madeAgain: [Int: TipDecoding] = [:]
        var decodedFiles = 0
        var tipFileFingerprints: [[UInt8]] = []
        if cache != nil { tipFileFingerprints.reserveCapacity(tipFiles.count) }
        for index in tipFiles.indices {
            let decoding: TipDecoding
            if let keptTip = keptTips[index] {
                decoding = keptTip
            } else if let document = tipDocuments[index], let (tip, findings) = decodedTips[index] {
                decoding = TipDecoding(fingerprint: fileFingerprints[index] ?? [], id: Self.rawID(document), tip: tip, findings: findings)
                madeAgain[index] = decoding
                if cache != nil { decodings[tipFiles[index]] = decoding }
            } else {
                continue
            }
            decodedFiles += 1
            if let tip = decoding.tip {
                catalog.tips.append(tip)
                if cache != nil { tipFileFingerprints.append(fileFingerprints[index] ?? []) }
            }
            sink.add(contentsOf: decoding.findings)
        }
        // A file kept before and not decoded now (gone, or unreadable): the map is made again from this load's alone.
        if cache != nil, decodings.count != decodedFiles {
            decodings = [:]
            for index in tipFiles.indices {
                if let decoding = keptTips[index] ?? madeAgain[index] { decodings[tipFiles[index]] = decoding }
            }
        }
        let decodedAgain = !madeAgain.isEmpty
        PhaseTrace.mark("load: tips decoded")
        // Their memory is reused while the String Catalog is decoded; they are freed on every core.
        tipDocuments.removeAllConcurrently()
        if let cache, decodedAgain || kept == nil || kept?.byPath.count != decodings.count || kept?.tipIDs != idsFingerprint {
            cache.keep(TipDecodings(tipIDs: idsFingerprint, byPath: decodings), ofCatalog: directory, context: stringsContext)
        }

        // 4. Groups and translations.
        if let document = parseOptional(FileName.groups) {
            catalog.groups = GroupDecoder(document: document, sink: sink).decode()
            sink.reportDuplicateKeys(in: document, what: FileName.groups)
        }
        if let document = parseOptional(FileName.lint) {
            catalog.lint = LintConfigurationDecoder(document: document, sink: sink, knownRuleIDs: knownRuleIDs).decode()
            sink.reportDuplicateKeys(in: document, what: FileName.lint)
        }

        // The lint rules that do not read translations run meanwhile, on the catalog as it is now (step 5).
        let lint = catalog.lint
        let lintRules = checksOnlyForErrors
            ? self.lintRules.filter { lint.makesErrors(of: $0.description.id, reportedAt: $0.description.defaultSeverity) }
            : self.lintRules
        let withoutTranslations = catalog
        let early = lintRules.indices.filter { !lintRules[$0].readsTranslations }
        let earlyFindings = early.isEmpty ? nil : BackgroundValue { early.map { lintRules[$0].check(withoutTranslations) } }

        var strings: JSONDocument?
        var stringsFingerprint: [UInt8] = []
        if let parsedStrings, case .mapped(let bytes) = parsedStrings.outcome, let cache {
            filesRead += 1
            bytesRead += parsedStrings.byteCount
            let byTip = tipFileFingerprints
            let fingerprint: @Sendable (Int) -> [UInt8] = { index in byTip[index] }
            let (file, kept, parsed) = stringsKept?.value ?? (cache.fingerprint(bytes), nil, nil)
            PhaseTrace.mark("load: String Catalog fingerprinted and its decoding read from the cache")
            stringsFingerprint = file
            if let table = decodeStrings(
                bytes, path: stringsPath, file: file, kept: kept, parsed: parsed, settings: catalog.settings, tips: catalog.tips,
                fingerprint: fingerprint, cache: cache, context: stringsContext, sink: sink) {
                catalog.localizations = table
            }
        } else if let parsedStrings, let document = take(parsedStrings) {
            let locales = translations.locales(sourceLanguage: catalog.settings.sourceLanguage)
            if let (table, _) = decodeStrings(document, settings: catalog.settings, tips: catalog.tips, locales: locales, sink: sink) {
                catalog.localizations = table
            }
            if keepsStrings { strings = document }
        }

        PhaseTrace.mark("load: String Catalog decoded")
        let fingerprints = cache == nil ? nil : LoadFingerprints(tips: tipFileFingerprints, shared: stringsFingerprint + stringsContext)
        // 5. Checks across files, then the house style of lint.json: content rules, and levels over every finding.
        whenDecoded?(catalog, fingerprints)
        // The rules are independent: those that read translations run now on every core (the others ran while the
        // String Catalog was decoded); their findings are added in the rules' order.
        let decoded = catalog
        let late = lintRules.indices.filter { lintRules[$0].readsTranslations }
        let lateFindings = concurrentChunks(count: late.count, chunkSize: 1) { range in range.flatMap { lintRules[late[$0]].check(decoded) } }
        var byRule = [[Diagnostic]](repeating: [], count: lintRules.count)
        for (position, ruleFindings) in lateFindings.enumerated() { byRule[late[position]] = ruleFindings }
        for (position, ruleFindings) in (earlyFindings?.value ?? []).enumerated() { byRule[early[position]] = ruleFindings }
        for ruleFindings in byRule { sink.add(contentsOf: ruleFindings) }
        let contentRules = checksOnlyForErrors
            ? lint.contentRules.filter { lint.makesErrors(of: $0.id, reportedAt: $0.severity) }
            : lint.contentRules
        sink.add(contentsOf: ContentLinter(rules: contentRules, sourceLanguage: catalog.settings.sourceLanguage).check(catalog))
        let diagnostics = catalog.lint.apply(to: sink.diagnostics)
        PhaseTrace.mark("load: checked")
        return LoadResult(catalog: catalog, diagnostics: diagnostics.sortedForOutput(), filesRead: filesRead, bytesRead: bytesRead,
                          stringsDocument: strings,
                          fingerprints: fingerprints)
    }

    // MARK: Parsing files

    struct ParsedFile: Sendable {
        enum Outcome: Sendable {
            case parsed(JSONDocument)
            /// Read, left unparsed.
            case read([UInt8])
            /// Read in place, left unparsed (`parse(_:readingOnly:)`).
            case mapped(FileBytes)
            case failed(Diagnostic)
        }
        var outcome: Outcome
        var byteCount: Int
        /// `StringsDecodingCache.fingerprint` of the file's path and bytes, when asked for.
        var fingerprint: [UInt8]? = nil

        /// Whether the file was read and left unparsed.
        var isRead: Bool {
            if case .read = outcome { return true }
            return false
        }

        /// The bytes read, parsed or not; nil when the file could not be read.
        var bytes: [UInt8]? {
            switch outcome {
            case .parsed(let document): document.source.bytes.array
            case .read(let bytes): bytes
            case .mapped(let source): Array(source.buffer)
            case .failed: nil
            }
        }
    }

    /// Decodes the String Catalog into its table, reporting its findings and duplicate keys; nil when it turns out
    /// not to be valid JSON (reported as such). With `recording`, also what it produced, for a cache (nil when
    /// the file is not valid JSON).
    /// `locales`: those whose translations are decoded (nil: all; see `TranslationScope`).
    func decodeStrings(
        _ document: JSONDocument, settings: CatalogSettings, tips: [Tip], locales: Set<LocaleID>? = nil, sink: DiagnosticSink,
        recording fingerprint: (@Sendable (Int) -> [UInt8])? = nil
    ) -> (table: LocalizationTable, record: StringsDecoding?)? {
        // Nothing is reported until every deferred entry has parsed: an invalid one makes the file a syntax error.
        let local = DiagnosticSink()
        if let (table, entryDuplicates, record) = StringCatalogDecoder(document: document, sink: local, settings: settings, tips: tips, decodedLocales: locales)
            .decode(recording: fingerprint) {
            sink.add(contentsOf: local.diagnostics)
            let duplicates = entryDuplicates.isEmpty
                ? document.duplicateKeys()
                : (document.duplicateKeys() + entryDuplicates).sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }
            sink.reportDuplicateKeys(duplicates, in: document, what: FileName.strings)
            let kept = record.map { record in
                StringsDecoding(
                    leadingFindings: record.leading, entries: record.entries,
                    duplicates: duplicates.map { first, duplicate in
                        StringsDecoding.Duplicate(
                            key: duplicate.key, location: document.location(ofByte: duplicate.keyOffset), first: document.location(ofByte: first.keyOffset))
                    })
            }
            return (table, kept)
        }
        // Parsed whole, the file reports its first syntax error exactly.
        do {
            let whole = try JSONDocument.parse(document.source)
            return decodeStrings(whole, settings: settings, tips: tips, locales: locales, sink: sink).map { ($0.table, nil) }
        } catch {
            sink.add(Diagnostic(error.message, rule: .invalidJSON, at: document.source.location(ofByte: error.offset)))
            return nil
        }
    }

    /// `decodeStrings` through `cache`: what it `kept` for these bytes (`file`, their fingerprint) in this context
    /// (`cache.decoding(ofFile:fingerprint:context:)`), with the entries whose tip file changed decoded again;
    /// otherwise the whole file, kept for next time (`parsed`: the file already parsed with its entries deferred).
    func decodeStrings(
        _ bytes: FileBytes, path: String, file: [UInt8], kept: StringsDecoding?, parsed: ParsedFile? = nil, settings: CatalogSettings,
        tips: [Tip], fingerprint: @escaping @Sendable (Int) -> [UInt8], cache: any StringsDecodingCache, context: [UInt8], sink: DiagnosticSink
    ) -> LocalizationTable? {
        if let kept {
            let local = DiagnosticSink()
            if let (table, changed) = StringCatalogDecoder.replay(
                kept, bytes: bytes, path: path, settings: settings, tips: tips, fingerprint: fingerprint, sink: local) {
                sink.add(contentsOf: local.diagnostics)
                if !changed.isEmpty { cache.keep(kept, ofFile: path, fingerprint: file, context: context, changed: changed) }
                return table
            }
        }
        let document: JSONDocument
        switch (parsed ?? parseDocument(SourceFile(path: path, mapped: bytes), deferringEntries: true)).outcome {
        case .parsed(let parsed): document = parsed
        case .failed(let diagnostic):
            sink.add(diagnostic)
            return nil
        case .read, .mapped: return nil
        }
        guard let (table, record) = decodeStrings(document, settings: settings, tips: tips, sink: sink, recording: fingerprint) else { return nil }
        if let record { cache.keep(record, ofFile: path, fingerprint: file, context: context, changed: nil) }
        return table
    }

    /// With `fingerprints`, the file's fingerprint is taken; a file that `kept` has a decoding of with the same
    /// fingerprint is only read. With `readingOnly`, the file is mapped (or copied, off disk) and left unparsed.
    /// `listedAsRegular`: a directory listing saw the file as a regular file (see `CatalogFileSystem.read(_:listedAsRegular:)`).
    func parse(
        _ path: String, deferringEntries: Bool = false, readingOnly: Bool = false, fingerprints: (any StringsDecodingCache)? = nil,
        kept: [String: TipDecoding] = [:], listedAsRegular: Bool = false
    ) -> ParsedFile {
        if readingOnly {
            // Left unparsed for a cache: mapped, not copied, from disk (the String Catalog is the largest file).
            do {
                let source = if let disk = fileSystem as? DiskFileSystem { try disk.map(path) } else { FileBytes(copying: try fileSystem.read(path)) }
                return ParsedFile(outcome: .mapped(source), byteCount: source.count)
            } catch {
                return ParsedFile(outcome: .failed(.unreadableFile(path, reason: error.reason)), byteCount: 0)
            }
        }
        // A String Catalog whose entries are parsed as they are decoded is read in place: its pages are given back
        // as its entries are decoded, so the file's bytes never all stay in memory beside what they decode to.
        if deferringEntries, fingerprints == nil, let disk = fileSystem as? DiskFileSystem {
            do {
                let mapped = try disk.map(path)
                return parseDocument(SourceFile(path: path, mapped: mapped), deferringEntries: true)
            } catch {
                return ParsedFile(outcome: .failed(.unreadableFile(path, reason: error.reason)), byteCount: 0)
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(path, listedAsRegular: listedAsRegular)
        } catch {
            return ParsedFile(
                outcome: .failed(.unreadableFile(path, reason: error.reason)),
                byteCount: 0)
        }
        let fingerprint = fingerprints.map { $0.fingerprint(Array(path.utf8) + [0] + bytes) }
        if let fingerprint, kept[path]?.fingerprint == fingerprint {
            return ParsedFile(outcome: .read(bytes), byteCount: bytes.count, fingerprint: fingerprint)
        }
        var parsed = parseDocument(path, bytes: bytes, deferringEntries: deferringEntries)
        parsed.fingerprint = fingerprint
        return parsed
    }

    func parseDocument(_ path: String, bytes: [UInt8], deferringEntries: Bool) -> ParsedFile {
        parseDocument(SourceFile(path: path, bytes: bytes), deferringEntries: deferringEntries)
    }

    func parseDocument(_ source: SourceFile, deferringEntries: Bool) -> ParsedFile {
        do {
            let document = deferringEntries ? try JSONDocument.parse(source, deferringMembersOf: "strings") : try JSONDocument.parse(source)
            // Scanned whole, a mapped file's pages are given back: each entry's are read again as it is decoded.
            if deferringEntries { source.bytes.releasePages(in: 0..<source.bytes.count) }
            return ParsedFile(outcome: .parsed(document), byteCount: source.bytes.count)
        } catch {
            return ParsedFile(
                outcome: .failed(Diagnostic(error.message, rule: .invalidJSON, at: source.location(ofByte: error.offset))),
                byteCount: source.bytes.count)
        }
    }

    /// Parses files on every core; results keep the input order. The file at `deferringEntriesOf` is a String
    /// Catalog whose entries are left for `decodeStrings`.
    /// With `fingerprints`, each file has its fingerprint, and those `kept` has a decoding of with that
    /// fingerprint are only read. `listedAsRegular`, by index: whether a directory listing saw the file as a
    /// regular file (files beyond it were not listed).
    func parseAll(
        _ paths: [String], deferringEntriesOf deferred: String? = nil, fingerprints: (any StringsDecodingCache)? = nil,
        kept: [String: TipDecoding] = [:], listedAsRegular: [Bool] = []
    ) -> [ParsedFile] {
        concurrentChunks(count: paths.count, chunkSize: 16) { range in
            range.map {
                parse(
                    paths[$0], deferringEntries: paths[$0] == deferred, fingerprints: fingerprints, kept: kept,
                    listedAsRegular: $0 < listedAsRegular.count && listedAsRegular[$0])
            }
        }.joinedArrays()
    }

    /// `tips/A.json`, `catalog.json`: a document's file named from the catalog folder, for messages.
    static func displayName(_ document: JSONDocument) -> String {
        let parts = document.source.path.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 2, parts[parts.count - 2] == Substring(FileName.tips) { return "tips/" + parts[parts.count - 1] }
        return parts.last.map(String.init) ?? document.source.path
    }

    /// Decodes tips on every core: each document's tip (nil when it does not decode to one) and findings, by
    /// index (nil where there is no document).
    func decodeTips(_ documents: [JSONDocument?], environment: RuleEnvironment, messages: MessageChecker) -> [(Tip?, [Diagnostic])?] {
        let ruleChecks = RuleCheckMemo()
        return concurrentChunks(count: documents.count, chunkSize: 64) { range in
            range.map { index -> (Tip?, [Diagnostic])? in
                guard let document = documents[index] else { return nil }
                let local = DiagnosticSink()
                let tip = TipDecoder(document: document, sink: local, environment: environment, messages: messages, ruleChecks: ruleChecks)
                    .decode()
                local.reportDuplicateKeys(in: document, what: CatalogLoader.displayName(document))
                return (tip, local.diagnostics)
            }
        }.joinedArrays()
    }

    /// A tip file's `id` member as written, when it is a string.
    static func rawID(_ document: JSONDocument) -> String? {
        guard case .object(let object) = document.root.value, case .string(let id)? = object["id"]?.value else { return nil }
        return id
    }
}
