import Foundation
import Synchronization
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatRules
import TipcatEngineBundle
import TipcatEngineStore
import TipcatStore
import TipcatCodec
import TipcatJSON

/// What the engine commands share: the catalog source (a store's channel or a bundle) with its revision,
/// the state database, the clock, and the mapping of engine errors to command errors.
struct EngineAccess {
    let arguments: ParsedArguments
    let context: CommandContext

    var command: [String] { arguments.commandPath }

    /// The catalog to run and its published revision (for republish policies), plus a label for status.
    struct Source {
        /// The catalog as given: whole (a bundle, a version read from the store), or from a snapshot only its
        /// settings and declarations (`isWhole` false: `prepared` decodes the tips when asked).
        private var given: Catalog
        private var isWhole: Bool
        var revision: CatalogRevision
        var label: String
        /// The prepared snapshot the catalog came from, when it did.
        var snapshot: EngineSnapshot?
        /// The catalog with its rules compiled (from a store: read back from the snapshot, or compiled with it).
        var prepared: PreparedCatalog?
        /// The version's pieces when they were read from the store (`catalog` then holds no translations), and
        /// its owners' objects as stored (the pieces' translations are left in them).
        var pieces: CatalogPieces?
        var stored: [String: TreeReader.StoredOwner]?
        /// The state database, opened and read while the snapshot was decoded.
        var state: StatePreload?

        init(
            catalog: Catalog, isWhole: Bool = true, revision: CatalogRevision, label: String, snapshot: EngineSnapshot? = nil,
            prepared: PreparedCatalog? = nil, pieces: CatalogPieces? = nil, stored: [String: TreeReader.StoredOwner]? = nil,
            state: StatePreload? = nil
        ) {
            (given, self.isWhole, self.revision, self.label, self.snapshot) = (catalog, isWhole, revision, label, snapshot)
            (self.prepared, self.pieces, self.stored, self.state) = (prepared, pieces, stored, state)
        }

        /// The whole catalog (from a snapshot, every tip is decoded the first time).
        var catalog: Catalog { isWhole ? given : prepared?.catalog ?? given }

        /// The settings and declarations, without decoding a tip (its `tips` may be empty).
        var declarations: Catalog { given }

        /// The catalog with `tip`'s whole definition and translations (from a store, `catalog` holds only what
        /// the engine reads); nil when the snapshot's copy of the tip is damaged.
        func catalog(showing tip: TipID) throws -> Catalog? {
            if let snapshot { return snapshot.detailCatalog(for: tip) }
            guard let pieces else { return catalog }
            guard var owner = pieces.owners[tip.rawValue] else { return catalog }
            if owner.strings == nil, let strings = stored?[tip.rawValue]?.strings {
                owner.strings = try JSONDocument.parse(SourceFile(path: "strings", bytes: strings)).root.value
            }
            return try EngineSnapshot.catalog(catalog, settings: pieces.settings, showing: owner, named: tip)
        }
    }

    /// `--store` > `TIPCAT_STORE` > `.tipcat/store.sqlite`, as for the publishing commands.
    var storePath: String { StoreAccess.storePath(arguments: arguments, environment: context.environment) }

    /// `--state` > `TIPCAT_STATE` > `state.sqlite` next to the store (`.tipcat/state.sqlite` with `--bundle`).
    var statePath: String {
        if let path = arguments.optionValues["state"]?.last { return path }
        if let path = context.environment["TIPCAT_STATE"], !path.isEmpty { return path }
        if arguments.optionValues["bundle"] != nil { return SQLiteTipStateStore.defaultPath }
        if case .postgreSQL? = try? StoreLocation(storePath) { return SQLiteTipStateStore.defaultPath }
        let directory = (storePath as NSString).deletingLastPathComponent
        return directory.isEmpty ? "state.sqlite" : directory + "/state.sqlite"
    }

    /// The catalog: `--bundle FILE`, else the head of `--channel` in the store.
    /// With a store, a prepared snapshot of the head version is read when there is a sound one for it (see
    /// `EngineSnapshot`); otherwise (or `useSnapshot: false`) the version is read from the store, checked
    /// against its content hash, and a snapshot is written for later calls.
    func source(useSnapshot: Bool = true) throws -> Source {
        if let bundlePath = arguments.optionValues["bundle"]?.last {
            guard arguments.optionValues["store"] == nil else {
                throw CommandError.usage("use --bundle or --store, not both", command: command)
            }
            guard let data = FileManager.default.contents(atPath: bundlePath) else {
                throw CommandError.failure("cannot read the bundle '\(bundlePath)'")
            }
            do {
                let bundle = try CatalogBundle(bytes: [UInt8](data), path: bundlePath)
                let catalog = try bundle.catalog(origin: bundlePath)
                let label = "bundle \(bundlePath)" + (bundle.version.map { " (version \($0)" + (bundle.channel.map { " of \($0)" } ?? "") + ")" } ?? "")
                return Source(catalog: catalog, revision: Self.revision(bundle.contentHash, bundle.pieces), label: label)
            } catch {
                throw CommandError.failure("\(bundlePath): \(error.description)")
            }
        }
        let access = StoreAccess(arguments: arguments, context: context)
        let path = storePath
        let location = try StoreLocation(path)
        if case .sqlite = location, !FileManager.default.fileExists(atPath: path) {
            throw CommandError.failure("no catalog store at '\(path)'; publish one first (tipcat publish), or pass --store or --bundle")
        }
        let store = try location.open(.readOnly)
        let channel = try access.channel()
        let record = try store.requireHead(of: channel)
        PhaseTrace.mark("engine: store head read")
        let label = "\(location), \(channel) at version \(record.number)"
        let origin = "\(store.location)@\(record.number)"
        let contentHash = record.contentHash.hex
        let snapshotPath = EngineSnapshot.path(forState: statePath)
        // The state is read while the snapshot is decoded: most engine calls need both.
        let state = StatePreload()
        let statePath = self.statePath
        if useSnapshot, let snapshot = EngineSnapshot.load(
            path: snapshotPath, contentHash: contentHash, origin: origin, alongside: { state.run { try Self.openStateStore(statePath) } })
        {
            return Source(
                catalog: snapshot.prepared.declarations, isWhole: false, revision: snapshot.revision, label: label, snapshot: snapshot, prepared: snapshot.prepared, state: state)
        }
        // No usable snapshot for this version: read and verify the version, then prepare one for later calls.
        // The translations are left as stored: the snapshot keeps them as they are, and this call decodes at most
        // the shown tip's.
        let (pieces, stored) = try store.storedPieces(of: record)
        let prepared: EngineSnapshot.Prepared
        do {
            prepared = try EngineSnapshot.prepare(contentHash: contentHash, pieces: pieces, stored: stored, origin: origin)
        } catch {
            throw StoreError.damagedObject(digest: contentHash, reason: error.description)
        }
        EngineSnapshot.write(prepared, to: snapshotPath)
        return Source(
            catalog: prepared.catalog.catalog, revision: prepared.revision, label: label, prepared: prepared.catalog, pieces: pieces,
            stored: stored)
    }

    /// The settings and declarations (no tips) of the channel's head, from its prepared snapshot: for commands
    /// that read no tip and need no engine (`engine donate`). Nil when that shortcut does not apply — a bundle,
    /// no store, no sound snapshot of the head yet, or a `TIPCAT_*` override or reset in the environment (the
    /// whole engine checks and applies those when it starts) — and the caller starts the whole engine.
    func snapshotDeclarations() throws -> Catalog? {
        guard arguments.optionValues["bundle"] == nil,
              !TipOverrides.Variable.allCases.contains(where: { context.environment[$0.rawValue] != nil })
        else { return nil }
        let access = StoreAccess(arguments: arguments, context: context)
        guard let store = try access.existingStore() else { return nil }
        let record = try store.requireHead(of: try access.channel())
        guard let catalog = EngineSnapshot.declarations(
            path: EngineSnapshot.path(forState: statePath), contentHash: record.contentHash.hex, origin: "\(store.location)@\(record.number)")
        else { return nil }
        // What the engine refuses up front when it starts (a published catalog never has these).
        return CatalogLimits.problems(in: catalog).isEmpty ? catalog : nil
    }

    /// The revision of a published version: its content hash, and per tip a hash of its definition and
    /// translations (what `republish: reset` compares).
    static func revision(_ contentHash: SHA256Digest, _ pieces: CatalogPieces) -> CatalogRevision {
        EngineBundle.revision(contentHash, pieces)
    }

    /// `--time-zone`: an IANA name or a UTC offset; else the machine's time zone (`TZ`, then the system's).
    func timeZone() throws -> RuleTimeZone {
        let text = arguments.value("time-zone") ?? context.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 }
        if let text {
            if let seconds = RuleTimeZone.offsetSeconds(parsing: text) { return .fixed(seconds: seconds) }
            guard let zone = TimeZone(identifier: text) else {
                throw CommandError.usage(
                    "unknown time zone '\(text)'; use an IANA name such as Europe/Paris or an offset such as +02:00", command: command)
            }
            return Self.ruleTimeZone(zone)
        }
        // The machine's zone is looked up (time zone data loaded) only when a calendar rule or a message needs it.
        let zone = FirstUse { TimeZone.current }
        return RuleTimeZone(lazilyNamed: { zone.value.identifier }, offset: { zone.value.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) })
    }

    static func ruleTimeZone(_ zone: TimeZone) -> RuleTimeZone {
        RuleTimeZone(identifier: zone.identifier) { zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) }
    }

    /// `--now` > `TIPCAT_NOW` > the system clock.
    func clock() throws -> any TipClock {
        if let text = arguments.value("now") {
            guard let time = Timestamp(iso8601: text) else {
                throw CommandError.usage("--now takes an ISO 8601 time such as 2026-01-05T08:00:00Z, not '\(text)'", command: command)
            }
            return FixedClock(time)
        }
        if let text = context.environment["TIPCAT_NOW"], !text.isEmpty {
            guard let time = Timestamp(iso8601: text) else {
                throw CommandError.failure("TIPCAT_NOW is '\(text)', which is not an ISO 8601 time such as 2026-01-05T08:00:00Z")
            }
            return FixedClock(time)
        }
        return SystemClock()
    }

    /// Opens (creating its directory and file when needed) the state database.
    func stateStore() throws -> SQLiteTipStateStore {
        var store = try Self.openStateStore(statePath)
        store.clock = try clock()
        return store
    }

    /// Opens the state database at `path`, creating its directory and file when needed.
    static func openStateStore(_ path: String) throws -> SQLiteTipStateStore {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CommandError.failure("cannot create the state directory '\(directory)': \(error.localizedDescription)")
            }
        }
        let store: SQLiteTipStateStore
        do throws(TipStateStoreError) {
            store = try SQLiteTipStateStore(path: path)
        } catch {
            throw CommandError.failure("state database \(error.message)")
        }
        return store
    }

    /// A configured engine over the source and the state database.
    func session(_ source: Source) throws -> TipEngineSession {
        let configuration = TipEngineConfiguration(clock: try clock(), environment: context.environment, timeZone: try timeZone())
        if let prepared = source.prepared, let preloaded = try source.state?.result() {
            var store = preloaded.store
            store.clock = configuration.clock
            return try TipEngineSession(
                prepared: prepared, revision: source.revision, store: store, loaded: preloaded.loaded, configuration: configuration)
        }
        let store = try stateStore()
        if let prepared = source.prepared {
            return try TipEngineSession(prepared: prepared, revision: source.revision, store: store, configuration: configuration)
        }
        return try TipEngineSession(catalog: source.catalog, revision: source.revision, store: store, configuration: configuration)
    }
}

/// The state database opened and read on another thread while the catalog is prepared: what it gave (or the
/// error opening it threw, thrown again by `result`), or nil when it did not run.
final class StatePreload: Sendable {
    struct Opened: Sendable {
        var store: SQLiteTipStateStore
        var loaded: Result<TipStateSnapshot, TipStateStoreError>
    }

    private let outcome = Mutex<Result<Opened, any Error>?>(nil)

    /// Opens the store with `open` and reads it.
    func run(_ open: () throws -> SQLiteTipStateStore) {
        let result: Result<Opened, any Error>
        do {
            let store = try open()
            do {
                result = .success(Opened(store: store, loaded: .success(try store.load())))
            } catch {
                result = .success(Opened(store: store, loaded: .failure(error)))
            }
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
    }

    /// The opened store and what reading it gave; nil when `run` did not run.
    func result() throws -> Opened? {
        guard let outcome = outcome.withLock({ $0 }) else { return nil }
        return try outcome.get()
    }
}
