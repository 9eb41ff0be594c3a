// swift-tools-version: 6.0
// tipcat — an open, data-driven take on TipKit for Swift on Linux.
// No package dependencies by design: only the toolchain and the OS's SQLite and libpq.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "tipcat",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tipcat", targets: ["tipcat"]),
        .library(name: "TipcatCatalog", targets: ["TipcatCatalog"]),
        // For apps: the engine (decisions, no I/O), its SQLite state store with state sync, and the loader of
        // published bundles. Sources/trail-app is an example app built on these three only.
        .library(name: "TipcatEngine", targets: ["TipcatEngine"]),
        .library(name: "TipcatEngineStore", targets: ["TipcatEngineStore"]),
        .library(name: "TipcatEngineBundle", targets: ["TipcatEngineBundle"]),
        .library(name: "TipcatCodec", targets: ["TipcatCodec"]),
        // For plugin authors: the tipcat.plugin/1 request and response types and the LintPlugin,
        // GeneratorPlugin and PublishHook protocols.
        .library(name: "TipcatPlugin", targets: ["TipcatPlugin"]),
        .executable(name: "tipcat-plugin-keys", targets: ["tipcat-plugin-keys"]),
    ],
    targets: [
        // Byte scans over large buffers with SSE2 (line starts, the extent of a JSON container); plain C elsewhere.
        .target(name: "CByteScan"),
        // Shared vocabulary: source locations, diagnostics, value types, did-you-mean.
        .target(name: "TipcatCore", dependencies: ["CByteScan"], swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // RFC 8259 JSON reader that keeps byte offsets for every value.
        .target(name: "TipcatJSON", dependencies: ["TipcatCore", "CByteScan"], swiftSettings: strict),
        // CLDR plural rules, ICU-style messages, locale fallback.
        .target(name: "TipcatLocalization", dependencies: ["TipcatCore"], swiftSettings: strict),
        // The eligibility rule language: lexer, parser, type checker.
        .target(name: "TipcatRules", dependencies: ["TipcatCore"], swiftSettings: strict),
        // Catalog model, loader and validators.
        .target(
            name: "TipcatCatalog",
            dependencies: ["TipcatCore", "TipcatJSON", "TipcatLocalization", "TipcatRules", "TipcatText"],
            swiftSettings: strict
        ),
        // The system SQLite library (libsqlite3-dev), through a module map and a shim header.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // A small SQLite layer: connection, statements, typed errors, transactions, migrations, WAL.
        .target(name: "TipcatSQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        // The system PostgreSQL client library, through a module map and a shim header: libpq's header (libpq-dev) at build time; the library itself is dlopen()ed by the first PostgreSQL
        // connection (see shim.h), so no tipcat process loads it, or needs it installed, without one.
        .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL", providers: [.apt(["libpq-dev"])]),
        // A small libpq layer: connection, parameterised statements (binary bytea), typed errors, transactions.
        .target(name: "TipcatPostgreSQL", dependencies: ["CPostgreSQL"], swiftSettings: strict),
        // libxml2's SAX interface for XLIFF, dlopen()ed on first use (see its header): libxml2-dev's headers at build
        // time only, for this target's one C file; libxml2 itself at run time, only by a process reading XML.
        .target(name: "CXMLEvents", cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // SHA-256 block compression with the processor's SHA instructions, when it has them (x86-64).
        .target(name: "CSHA256"),
        // A keyed polynomial hash over GF(2^61 - 1): the publish cache's fingerprints of the files it keys by.
        .target(name: "CPolyHash"),
        // The canonical catalog form without SQLite: canonical JSON, SHA-256, content tree, pieces, bundles.
        .target(
            name: "TipcatCodec",
            dependencies: ["TipcatCore", "TipcatJSON", "TipcatLocalization", "TipcatCatalog", "CSHA256", "CPolyHash"],
            swiftSettings: strict
        ),
        // Published catalog versions in SQLite or PostgreSQL: content-addressed objects, versions, channels, diff.
        .target(
            name: "TipcatStore",
            dependencies: ["TipcatCore", "TipcatJSON", "TipcatLocalization", "TipcatCatalog", "TipcatCodec", "TipcatSQLite", "TipcatPostgreSQL"],
            swiftSettings: strict
        ),
        // TipKit's display logic over a catalog and a state store: rules, events, parameters, frequency,
        // groups, invalidation, overrides, explain, simulate.
        .target(
            name: "TipcatEngine",
            dependencies: ["TipcatCore", "TipcatRules", "TipcatCatalog", "TipcatLocalization"],
            swiftSettings: strict
        ),
        // The engine's state in SQLite (WAL, busy timeout, migrations): SQLiteTipStateStore; state files and
        // their merge (SyncState, SyncStateFile).
        .target(
            name: "TipcatEngineStore", dependencies: ["TipcatCore", "TipcatCatalog", "TipcatEngine", "TipcatSQLite", "TipcatJSON"],
            swiftSettings: strict),
        // Loads a published catalog for the engine: a bundle file or its bytes, or a static export directory,
        // each checked against its hashes (EngineBundle).
        .target(
            name: "TipcatEngineBundle", dependencies: ["TipcatCore", "TipcatCatalog", "TipcatEngine", "TipcatCodec", "TipcatJSON"],
            swiftSettings: strict),
        // An example app that links only the products above: donates, asks for tips, keeps its state in a file.
        .executableTarget(
            name: "trail-app", dependencies: ["TipcatEngine", "TipcatEngineStore", "TipcatEngineBundle"], swiftSettings: strict),
        // Hand-written command-line parsing with swift-argument-parser's conventions.
        .target(name: "TipcatArguments", dependencies: ["TipcatCore"], swiftSettings: strict),
        // Terminal-correct text: display width, wrapping, sanitizing, color decisions and ANSI styling.
        .target(name: "TipcatText", dependencies: ["TipcatCore"], swiftSettings: strict),
        // Spec-conformant Mustache engine: parse once into an AST, render many times.
        .target(name: "TipcatTemplates", dependencies: ["TipcatCore"], swiftSettings: strict),
        // Resolved tip → render context → style (plain, Markdown, ANSI, user styles in Templates/).
        .target(
            name: "TipcatRender",
            dependencies: ["TipcatCore", "TipcatCatalog", "TipcatTemplates", "TipcatText"],
            swiftSettings: strict
        ),
        // `tipcat preview`: the HTML gallery of every tip × locale (pages, assets, an atomic site writer) and the
        // small HTTP/1.1 server that serves it on 127.0.0.1.
        .target(
            name: "TipcatPreview",
            dependencies: ["TipcatCore", "TipcatCatalog", "TipcatLocalization", "TipcatRender"],
            swiftSettings: strict
        ),
        // The plugin protocol (tipcat.plugin/1) as Swift types, and the protocols a Swift plugin implements.
        // Foundation only: a plugin built with it does not link SQLite or the rest of tipcat.
        .target(name: "TipcatPlugin", swiftSettings: strict),
        // The plugin registry and host: styles, lint rules, generators, publish hooks; external plugins run
        // as bounded child processes; plugins.json; JSON pointers mapped to file:line:col.
        .target(
            name: "TipcatPlugins",
            dependencies: ["TipcatCore", "TipcatJSON", "TipcatCatalog", "TipcatLocalization", "TipcatRender", "TipcatText", "TipcatPlugin"],
            swiftSettings: strict
        ),
        // An external plugin written with TipcatPlugin: generates Swift constants for a catalog's keys.
        .executableTarget(name: "tipcat-plugin-keys", dependencies: ["TipcatPlugin"], swiftSettings: strict),
        // Commands, printing, exit codes. The only module that prints or exits.
        .target(
            name: "TipcatCLI",
            dependencies: [
                "TipcatCore", "TipcatJSON", "TipcatLocalization", "TipcatRules", "TipcatCatalog", "TipcatArguments",
                "TipcatTemplates", "TipcatText", "TipcatRender", "TipcatCodec", "TipcatStore",
                "TipcatEngine", "TipcatEngineStore", "TipcatEngineBundle", "TipcatPlugin", "TipcatPlugins", "TipcatPreview",
                "CXMLEvents",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "tipcat", dependencies: ["TipcatCLI"], swiftSettings: strict),
        // Regenerates Sources/TipcatLocalization/PluralRules+CLDR.swift from CLDR's plurals.json.
        .executableTarget(name: "tipcat-gen-plurals", swiftSettings: strict),
        // Regenerates Sources/TipcatText/DisplayWidth+Tables.swift from the vendored Unicode data files.
        .executableTarget(name: "tipcat-gen-widths", swiftSettings: strict),
        // The engine's in-process benchmark and synthetic engine catalogs: used by `make bench` and the engine
        // tests, never part of a product library.
        .target(name: "TipcatBenchSupport", dependencies: ["TipcatCore", "TipcatCatalog", "TipcatLocalization", "TipcatEngine"], swiftSettings: strict),
        // `make bench`: synthetic catalog generator and timings.
        .executableTarget(
            name: "tipcat-bench",
            dependencies: ["TipcatCore", "TipcatJSON", "TipcatCatalog", "TipcatLocalization", "TipcatRender", "TipcatTemplates", "TipcatText", "TipcatCodec",
                           "TipcatStore", "TipcatEngine", "TipcatEngineStore", "TipcatEngineBundle", "TipcatPlugins", "TipcatBenchSupport"],
            swiftSettings: strict
        ),

        // Helpers and fixtures shared by the test targets: the repository root, temporary directories, the
        // in-process `tipcat` runner, catalog loading, CLDR samples. Lives under Tests/, never shipped.
        .target(name: "TipcatTestSupport", dependencies: ["TipcatCLI", "TipcatCatalog", "TipcatPostgreSQL"], path: "Tests/TipcatTestSupport"),
        .testTarget(name: "TipcatCoreTests", dependencies: ["TipcatCore"]),
        .testTarget(name: "TipcatJSONTests", dependencies: ["TipcatJSON", "TipcatCore"]),
        .testTarget(name: "TipcatLocalizationTests", dependencies: ["TipcatLocalization", "TipcatCore", "TipcatTestSupport"]),
        .testTarget(name: "TipcatRulesTests", dependencies: ["TipcatRules", "TipcatCore"]),
        .testTarget(name: "TipcatCatalogTests", dependencies: ["TipcatCatalog", "TipcatCore", "TipcatJSON", "TipcatLocalization", "TipcatTestSupport"]),
        .testTarget(name: "TipcatTemplatesTests", dependencies: ["TipcatTemplates", "TipcatCore"]),
        .testTarget(
            name: "TipcatEngineTests",
            dependencies: ["TipcatEngine", "TipcatCatalog", "TipcatRules", "TipcatCore", "TipcatBenchSupport"],
            exclude: ["Scenarios"]
        ),
        .testTarget(name: "TipcatArgumentsTests", dependencies: ["TipcatArguments"]),
        .testTarget(name: "TipcatTextTests", dependencies: ["TipcatText", "TipcatCore", "TipcatTestSupport"]),
        .testTarget(name: "TipcatRenderTests", dependencies: ["TipcatRender", "TipcatCatalog", "TipcatCore", "TipcatText", "TipcatTemplates", "TipcatTestSupport"]),
        .testTarget(
            name: "TipcatPreviewTests",
            dependencies: ["TipcatPreview", "TipcatCLI", "TipcatCatalog", "TipcatCore", "TipcatLocalization", "TipcatRender", "TipcatTestSupport"]
        ),
        .testTarget(name: "TipcatCLITests", dependencies: ["TipcatCLI", "TipcatCore", "TipcatArguments", "TipcatStore", "TipcatTemplates", "TipcatTestSupport"]),
        .testTarget(name: "TipcatSQLiteTests", dependencies: ["TipcatSQLite"]),
        .testTarget(
            name: "TipcatCodecTests",
            dependencies: ["TipcatCodec", "TipcatCatalog", "TipcatCore", "TipcatJSON", "TipcatLocalization", "TipcatTestSupport"]
        ),
        .testTarget(
            name: "TipcatPluginsTests",
            dependencies: ["TipcatPlugins", "TipcatPlugin", "TipcatCatalog", "TipcatCore", "TipcatCLI", "TipcatTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TipcatStoreTests",
            dependencies: [
                "TipcatStore", "TipcatCodec", "TipcatSQLite", "TipcatPostgreSQL", "TipcatCatalog", "TipcatCore", "TipcatJSON",
                "TipcatLocalization", "TipcatCLI", "TipcatTestSupport",
            ]
        ),
        // `tipcat generate swift` for the sample catalog (a golden file the plugin tests keep current), compiled
        // against the engine and used.
        .testTarget(name: "TipcatGeneratedSwiftTests", dependencies: ["TipcatEngine", "TipcatCatalog", "TipcatCore"]),
        .testTarget(
            name: "TipcatEngineStoreTests",
            dependencies: [
                "TipcatEngineStore", "TipcatEngine", "TipcatCatalog", "TipcatCore", "TipcatCLI", "TipcatStore", "TipcatCodec",
                "TipcatSQLite", "TipcatTestSupport", "TipcatEngineBundle", "TipcatJSON",
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
