import TipcatArguments

/// The publishing commands: publish, versions, show-version, diff, rollback, promote, export.
extension CommandTree {
    static let storeOption = ArgumentSpec.option(
        "store", valueName: "path",
        help: "The store: an SQLite file, or postgresql://user@host:port/db (default: $TIPCAT_STORE, else .tipcat/store.sqlite next to the catalog directory).",
        completion: .file(extensions: ["sqlite"]))

    static func channelOption(_ help: String) -> ArgumentSpec {
        .option("channel", valueName: "name", help: help, default: "production")
    }

    static let expectVersionOption = ArgumentSpec.option(
        "expect-version", valueName: "n",
        help: "Fail unless the channel is at version n (0: the channel has no version yet); guards against concurrent publishes.")

    static let authorOption = ArgumentSpec.option(
        "author", valueName: "name", help: "Who publishes (default: git config user.name, else $USER).")

    static let publish = CommandSpec(
        name: "publish",
        abstract: "Validate the catalog and publish it as a new version of a channel.",
        discussion: """
            Validates first: any error publishes nothing (exit 1). Then stores the catalog's canonical form \
            content-addressed by SHA-256 (pieces unchanged since an earlier version are shared), creates version \
            N+1 with its author, UTC time, message, parent and content hash, and moves the channel to it — all in \
            one transaction. Content identical to the channel's head publishes nothing. The default message \
            summarizes the diff against the head in one line. Plugins (plugins.json): lint plugins run with the \
            validation; pre-publish hooks run before anything is stored and veto the publish with an error; \
            post-publish hooks are told about the new version afterwards (their failures are warnings). \
            Republishing is incremental: a successful publish keeps the decoded tip files, the decoded String \
            Catalog and each tip's stored objects in a cache ($TIPCAT_CACHE_DIR, else <store>-cache/ beside an \
            SQLite store, else ~/.cache/tipcat), keyed by a keyed hash of the files' bytes (the cache's own random \
            keys, in fingerprint.key; never by times); the next publish parses and decodes \
            only the tip files that changed, decodes again only their translations and encodes only those tips, \
            and still runs every check across files. \
            The version is byte-identical to a publish without the cache; a damaged or stale cache is ignored. \
            A publish removes what the cache keeps for other catalogs that no publish has written for 30 days, \
            and what a killed publish left staged once it is an hour old. \
            A first publish streams: each batch of tips is encoded on every core and stored while the next is \
            made. A new SQLite store is written through SQLite's rollback journal until its first publish \
            commits (its objects written once), then uses the write-ahead log; a command that reads a store \
            whose first publish was interrupted says so, and the next publish repairs it. \
            TIPCAT_TRACE=1 prints each phase's wall and CPU time, memory and page faults to standard error.
            """,
        arguments: [
            catalogOption, storeOption, channelOption("The channel to publish to."),
            .option("message", short: "m", valueName: "text", help: "The version's message (default: a one-line summary of the diff)."),
            authorOption, expectVersionOption,
            .flag("force", help: "Publish even over a version mismatch or unchanged content; the version is recorded as forced."),
            .flag("dry-run", help: "Validate, run the pre-publish hooks and print the diff against the channel's head; write nothing."),
            .flag("no-cache", help: "Publish from scratch: neither read nor write the publish cache."),
            noPluginsFlag,
        ],
        examples: [
            "tipcat publish",
            "tipcat publish --channel beta -m \"New trail tips\" --expect-version 6",
            "tipcat publish --dry-run",
        ])

    static let versions = CommandSpec(
        name: "versions",
        abstract: "List published versions: number, time, author, type, tips changed, content hash, message.",
        discussion: "With --channel, only the versions that channel has pointed at, in order. Channel heads are marked.",
        arguments: [
            catalogOption, storeOption,
            .option("channel", valueName: "name", help: "Only the versions this channel has pointed at."),
            .flag("json", help: "Print JSON instead of a table."),
        ],
        examples: ["tipcat versions", "tipcat versions --channel production --json"])

    static let showVersion = CommandSpec(
        name: "show-version",
        abstract: "Show one version: its record, its content and what changed from its parent.",
        arguments: [
            .positional("version", help: "A version number, or a channel name for its head."),
            catalogOption, storeOption, .flag("json", help: "Print JSON."),
        ],
        examples: ["tipcat show-version 2", "tipcat show-version production --json"])

    static let diff = CommandSpec(
        name: "diff",
        abstract: "Show what changed between two versions, per tip, per field, per locale.",
        discussion: """
            Each side is a version number, a channel name (its head) or 'working' (the catalog files on disk, \
            which must validate). Changes are listed as added (+), removed (-) or changed (~) with old → new text.
            """,
        arguments: [
            .positional("from", help: "A version number, a channel or 'working'."),
            .positional("to", help: "A version number, a channel or 'working'."),
            catalogOption, storeOption, .flag("json", help: "Print JSON."),
        ],
        examples: ["tipcat diff 1 2", "tipcat diff production working", "tipcat diff beta production --json"])

    static let rollback = CommandSpec(
        name: "rollback",
        abstract: "Publish an older version's content again, as a new version.",
        discussion: """
            History never moves backwards: the new version (type rollback) records the version it restores as \
            its source and the channel's head as its parent.
            """,
        arguments: [
            .option("to", valueName: "n", help: "The version whose content to restore.", required: true),
            channelOption("The channel to roll back."), catalogOption, storeOption,
            .option("message", short: "m", valueName: "text", help: "The version's message."), authorOption, expectVersionOption,
        ],
        examples: ["tipcat rollback --to 1", "tipcat rollback --to 5 --channel beta --expect-version 7"])

    static let promote = CommandSpec(
        name: "promote",
        abstract: "Point a channel at another channel's head (compare-and-swap).",
        discussion: """
            No version is created: the target channel moves to the source's head version, in one transaction \
            that fails if the target moved meanwhile (or, with --expect-version, is not at that version).
            """,
        arguments: [
            .positional("from", help: "The channel whose head to promote (e.g. beta)."),
            .positional("to", help: "The channel to move (e.g. production)."),
            catalogOption, storeOption, expectVersionOption,
        ],
        examples: ["tipcat promote beta production", "tipcat promote beta production --expect-version 4"])

    static let export = CommandSpec(
        name: "export",
        abstract: "Write a channel's head as one canonical JSON bundle, or as static files for a CDN.",
        discussion: """
            -o: for apps that ship the catalog inside their binary: the bundle holds the canonical catalog, the \
            version number, the channel and the content hash, which readers check. --static DIR: what an app or a \
            CDN fetches: versions/<sha256>.json (the bundle, named by the SHA-256 of its bytes, cacheable forever) \
            and channels/<channel>.json (version, content hash, the bundle's path and SHA-256), each with a .etag \
            file holding that hash; files already up to date are not rewritten, and the channel file is written last.
            """,
        arguments: [
            channelOption("The channel to export."),
            .option("output", short: "o", valueName: "file", help: "Where to write the bundle ('-' for standard output).",
                    completion: .file(extensions: ["json"])),
            .option("static", valueName: "dir", help: "Write channels/<channel>.json and versions/<sha256>.json (with .etag files) under dir.",
                    completion: .directory),
            catalogOption, storeOption,
        ],
        examples: [
            "tipcat export -o bundle.json", "tipcat export --channel beta -o - | gzip > beta.json.gz",
            "tipcat export --channel production --static public/tipcat",
        ])
}

/// `tipcat store …`: operations on a whole store.
extension CommandTree {
    static let store = CommandSpec(
        name: "store",
        abstract: "Work on a whole store: copy it to another backend.",
        discussion: """
            A store is an SQLite file or a PostgreSQL database (postgresql://user@host:port/db or postgres://…; \
            passwords from the URL, PGPASSWORD or ~/.pgpass).
            """)

    static let storeMigrate = CommandSpec(
        name: "migrate",
        abstract: "Copy every version, channel and object of one store into another, verifying content hashes.",
        discussion: """
            The target must be empty or hold a beginning of the source's history (an earlier copy): what it \
            lacks is added in one transaction, every object read from the source checked against its hash and \
            every copied version against its content hash before it commits. Running it again when the target is \
            up to date writes nothing. The source is only read.
            """,
        arguments: [
            .option("from", valueName: "store", help: "The store to copy (a path or a postgresql:// URL).", required: true),
            .option("to", valueName: "store", help: "The store to copy into (created when missing).", required: true),
        ],
        examples: [
            "tipcat store migrate --from .tipcat/store.sqlite --to postgresql://release@db.example.com/tipcat",
            "tipcat store migrate --from postgresql://db.example.com/tipcat --to backup.sqlite",
        ])
}
