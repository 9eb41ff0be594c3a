/// The wire protocol between tipcat and an external plugin: one JSON request on the plugin's standard input,
/// one JSON response on its standard output, standard error for people.
///
/// The version string is checked before anything else, in both directions. Unknown members are ignored so
/// later minor additions stay compatible; a missing required member is an error.
public enum PluginProtocol {
    /// The protocol this library speaks.
    public static let version = "tipcat.plugin/1"
}

/// What a plugin can do for tipcat.
public enum PluginKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// A folder of templates under `Templates/` (never an external program).
    case style
    /// Reads the catalog, returns findings.
    case lint
    /// Reads the catalog and options, returns files.
    case generate
    /// May veto a publish with error findings.
    case prePublish = "pre-publish"
    /// Told about a committed version.
    case postPublish = "post-publish"

    public static func < (lhs: PluginKind, rhs: PluginKind) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// The `kind` member of a request: one of the plugin kinds, or `describe`.
public enum RequestKind: String, Sendable, Hashable, Codable, CaseIterable {
    case describe
    case lint
    case generate
    case prePublish = "pre-publish"
    case postPublish = "post-publish"
}

/// One request, as tipcat writes it to a plugin's standard input.
public struct PluginRequest: Sendable, Codable {
    /// Always `tipcat.plugin/1` for this version.
    public var `protocol`: String
    public var kind: RequestKind
    /// The name the plugin is configured under in `plugins.json`.
    public var plugin: String?
    /// The tipcat version that sends the request.
    public var tipcatVersion: String?
    /// The plugin's options from `plugins.json`, merged with `--option` values on the command line.
    public var options: [String: PluginJSON]?
    /// The resolved catalog (absent for `describe`).
    public var catalog: PluginCatalog?
    /// For `pre-publish` and `post-publish`: what is being published.
    public var publish: PublishEvent?

    public init(
        kind: RequestKind, plugin: String? = nil, tipcatVersion: String? = nil, options: [String: PluginJSON]? = nil,
        catalog: PluginCatalog? = nil, publish: PublishEvent? = nil
    ) {
        self.protocol = PluginProtocol.version
        self.kind = kind
        self.plugin = plugin
        self.tipcatVersion = tipcatVersion
        self.options = options
        self.catalog = catalog
        self.publish = publish
    }
}

/// A publish, as hooks see it. Before the publish `version` is the number it will get; after, the number it got.
public struct PublishEvent: Sendable, Codable, Hashable {
    public var channel: String
    public var version: Int
    /// The catalog's content hash (SHA-256, hex).
    public var contentHash: String
    public var author: String
    public var message: String
    /// The version the channel was at before, nil for its first version.
    public var previousVersion: Int?
    public var diff: DiffSummary
    /// True for `--dry-run` (only pre-publish hooks run then).
    public var dryRun: Bool

    public init(
        channel: String, version: Int, contentHash: String, author: String, message: String, previousVersion: Int?,
        diff: DiffSummary, dryRun: Bool
    ) {
        self.channel = channel
        self.version = version
        self.contentHash = contentHash
        self.author = author
        self.message = message
        self.previousVersion = previousVersion
        self.diff = diff
        self.dryRun = dryRun
    }

    /// What changed against the channel's previous version.
    public struct DiffSummary: Sendable, Codable, Hashable {
        public var summary: String
        public var tipsAdded: [String]
        public var tipsRemoved: [String]
        public var tipsChanged: [String]

        public init(summary: String, tipsAdded: [String], tipsRemoved: [String], tipsChanged: [String]) {
            self.summary = summary
            self.tipsAdded = tipsAdded
            self.tipsRemoved = tipsRemoved
            self.tipsChanged = tipsChanged
        }
    }
}

/// One response, as a plugin writes it to its standard output.
public struct PluginResponse: Sendable, Codable {
    public var `protocol`: String
    /// For `lint`, `pre-publish` and `post-publish`.
    public var diagnostics: [PluginDiagnostic]?
    /// For `generate`.
    public var files: [PluginFile]?
    /// For `describe`.
    public var description: PluginDescription?

    public init(diagnostics: [PluginDiagnostic]? = nil, files: [PluginFile]? = nil, description: PluginDescription? = nil) {
        self.protocol = PluginProtocol.version
        self.diagnostics = diagnostics
        self.files = files
        self.description = description
    }
}

/// What a plugin says about itself in answer to `describe`.
public struct PluginDescription: Sendable, Codable, Hashable {
    public var name: String
    public var version: String
    public var kinds: [PluginKind]
    public var summary: String?
    /// A JSON Schema for the plugin's options.
    public var options: PluginJSON?

    public init(name: String, version: String, kinds: [PluginKind], summary: String? = nil, options: PluginJSON? = nil) {
        self.name = name
        self.version = version
        self.kinds = kinds
        self.summary = summary
        self.options = options
    }
}

/// One finding. Locate it with `file` and either a JSON `pointer` (RFC 6901) into that file or `line`/`column`
/// (1-based). `file` is relative to the catalog directory, as the request gives it.
public struct PluginDiagnostic: Sendable, Codable, Hashable {
    public enum Severity: String, Sendable, Codable, Hashable {
        case error, warning, note
    }

    public var severity: Severity
    /// The rule's id within the plugin (`no-exclamation`); tipcat reports it as `plugin-name/no-exclamation`.
    public var rule: String
    public var message: String
    public var file: String?
    public var pointer: String?
    public var line: Int?
    public var column: Int?

    public init(
        _ severity: Severity, rule: String, message: String, file: String? = nil, pointer: String? = nil,
        line: Int? = nil, column: Int? = nil
    ) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.file = file
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    /// A finding at a field the request located (`tip.title.at`, `translation.at`).
    public init(_ severity: Severity, rule: String, message: String, at place: Place) {
        self.init(severity, rule: rule, message: message, file: place.file, pointer: place.pointer)
    }
}

/// A generated file: a path relative to the output directory and its UTF-8 text.
public struct PluginFile: Sendable, Codable, Hashable {
    public var path: String
    public var contents: String

    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}
