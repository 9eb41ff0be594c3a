import TipcatArguments

/// `tipcat engine …`: TipKit's display logic over a published catalog, driven from a shell.
extension CommandTree {
    /// The options every engine command takes: where the catalog and the state are, and the clock.
    static let engineSourceOptions: [ArgumentSpec] = [
        .option("store", valueName: "path",
                help: "The catalog store: an SQLite file or a postgresql:// URL (default: $TIPCAT_STORE, else .tipcat/store.sqlite).",
                completion: .file(extensions: ["sqlite"])),
        .option("channel", valueName: "name", help: "The channel whose head version runs.", default: "production"),
        .option("bundle", valueName: "file", help: "Run an exported bundle (tipcat export) instead of a store's channel.",
                completion: .file(extensions: ["json"])),
        .option("state", valueName: "path",
                help: "The state database (default: $TIPCAT_STATE, else state.sqlite next to the store; .tipcat/state.sqlite with --bundle).",
                completion: .file(extensions: ["sqlite"])),
        .option("now", valueName: "time", help: "A fixed clock, ISO 8601 (2026-01-05T08:00:00Z); default $TIPCAT_NOW, else the system clock."),
        .option("time-zone", valueName: "zone",
                help: "The user's time zone for calendar rules (now.hour, .isToday): an IANA name (Europe/Paris) or an offset (+02:00); default: this machine's ($TZ)."),
        .option("events-max-size", valueName: "size",
                help: "The events log (<state>.events.jsonl) keeps at most this many bytes (512KiB, 1MiB; default: $TIPCAT_EVENTS_MAX_SIZE, else 1MiB)."),
        .option("events-max-age", valueName: "duration",
                help: "The events log drops events older than this (12h, 30d; default: $TIPCAT_EVENTS_MAX_AGE, else 30d)."),
    ]

    static let engineTipArgument = ArgumentSpec.positional("tip", help: "A tip id, or a custom ID (NewTrailTip-butler-fork).")

    static let engineParamOption = ArgumentSpec.option(
        "param", valueName: "name=value",
        help: "For a tip with parameters: registers the instance with this value (repeatable; records by field: trail.id=butler-fork).",
        repeating: true)

    static func engineCommand(
        _ name: String, _ abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [], examples: [String]
    ) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, discussion: discussion, arguments: arguments + engineSourceOptions, examples: examples)
    }

    static let engine = CommandSpec(
        name: "engine",
        abstract: "Run TipKit's display logic on a published catalog: donate, set, next, why, simulate…",
        discussion: """
            The catalog is a store's channel (--store, --channel; publish it first with tipcat publish) or an \
            exported bundle (--bundle). The device state (donations, parameters, tip status) lives in an SQLite \
            database (--state); several processes may use it at once. When the channel's version changes, tips \
            whose republish policy is 'reset' and whose content changed start over. TIPCAT_SHOW_ALL_TIPS, \
            TIPCAT_SHOW_TIPS, TIPCAT_HIDE_TIPS, TIPCAT_HIDE_ALL_TIPS and TIPCAT_RESET_DATASTORE apply; \
            TIPCAT_TRACE=1 prints each phase's wall and CPU time, memory and page faults to standard error. \
            Exit status: 0 success, 1 failure (unknown tip, event or parameter, bad value, unmet expectation), \
            64 usage error.
            """)

    static let engineJSONFlag = ArgumentSpec.flag("json", help: "Print JSON (see the README for its shape).")

    static let engineStatus = engineCommand("status", "Show every tip's status, display count and the tip to show now.",
        arguments: [engineJSONFlag],
        examples: ["tipcat engine status", "tipcat engine status --bundle tips.bundle.json --state app-state.sqlite"])

    static let engineDonate = engineCommand("donate", "Donate an event, with its field values.",
        discussion: """
          Every declared field needs a value of its type (int, double, bool, string, date). The \
          donation is dated now (the clock: --now, $TIPCAT_NOW or the system clock), or at --at, \
          which may not be later than now. With --batch FILE (- for standard input), every line of the \
          file is one donation in JSON, {"event": "opened-map", "values": {"itemID": 3}, "at": \
          "2026-01-04T18:30:00Z"} ("values" and "at" optional), all stored in one transaction: if any line \
          is wrong, each bad line is reported as FILE:LINE:COLUMN and nothing is stored. Stored donations \
          beyond an event's donationLimit.maxCount are pruned, the oldest first.
          """,
        arguments: [
          .positional("event", help: "The event id (entered-backyard-detail-view).", required: false),
          .positional("fields", help: "Field values: name=value.", required: false, repeating: true),
          .option("at", valueName: "time", help: "When it happened, ISO 8601 (default: now); not in the future."),
          .option("batch", valueName: "file", help: "Donate every line of a JSON Lines file (- reads standard input), in one transaction.",
                  completion: .file(extensions: ["jsonl"])),
        ],
        examples: ["tipcat engine donate entered-backyard-detail-view backyardID=3", "tipcat engine donate opened-map --now 2026-01-05T12:00:00Z",
                   "tipcat engine donate opened-map --at 2026-01-04T18:30:00Z", "tipcat engine donate --batch donations.jsonl"])

    static let engineSet = engineCommand("set", "Set an app parameter.",
        discussion: "Values are typed as declared: true/false, numbers, ISO 8601 dates, lists as a,b,c or JSON.",
        arguments: [
          .positional("parameter", help: "The parameter ($isLoggedIn or isLoggedIn)."),
          .positional("value", help: "Its new value."),
        ],
        examples: ["tipcat engine set isLoggedIn true", "tipcat engine set favoritePlants Rose,Tulip"])

    static let engineNext = engineCommand("next", "Print the tip to show now, or 'none'.",
        arguments: [.option("group", valueName: "group", help: "Only this tip group's current tip."), engineJSONFlag],
        examples: ["tipcat engine next", "tipcat engine next --group compass"])

    static let engineShow = engineCommand("show", "Render a tip with a style (see tipcat styles).",
        arguments: [
          engineTipArgument, engineParamOption,
          .option("style", valueName: "style", help: "The style.", default: "plain"),
          .option("locale", valueName: "locale", help: "The locale (default: the source language)."),
          DeviceOption.spec,
          .option("templates", valueName: "dir", help: "The styles directory.", default: "Templates", completion: .directory),
          WidthOption.spec,
          .option("color", valueName: "when", help: "Use colours.", default: "auto", allowed: ["auto", "always", "never"]),
          engineJSONFlag,
        ],
        examples: ["tipcat engine show \"$(tipcat engine next)\" --style ansi", "tipcat engine show ShowLocationTip --locale fr"])

    static let engineDisplayed = engineCommand("displayed", "Report that the app shows a tip (counts a display, starts timing it).",
        arguments: [engineTipArgument, engineParamOption], examples: ["tipcat engine displayed FavoriteBackyardTip", "tipcat engine displayed NewTrailTip --param trail.id=butler-fork --param trail.name='Butler Fork' --param trail.region=Wasatch"])

    static let engineHidden = engineCommand("hidden", "Report that the app stopped showing a tip.",
        arguments: [engineTipArgument, engineParamOption], examples: ["tipcat engine hidden FavoriteBackyardTip"])

    static let engineDismiss = engineCommand("dismiss", "The user closed a tip (invalidates it: tipClosed).",
        arguments: [engineTipArgument, engineParamOption], examples: ["tipcat engine dismiss ShowLocationTip", "tipcat engine dismiss NewTrailTip-butler-fork"])

    static let engineInvalidate = engineCommand("invalidate", "Invalidate a tip with a reason.",
        arguments: [
          engineTipArgument, engineParamOption,
          .option("reason", valueName: "reason", help: "Why.",
                  allowed: ["actionPerformed", "tipClosed", "displayCountExceeded", "displayDurationExceeded"], required: true),
        ],
        examples: ["tipcat engine invalidate ShowLocationTip --reason actionPerformed"])

    static let engineAction = engineCommand("action", "The user chose one of a tip's actions (logged as actionPerformed); invalidates the tip: actionPerformed.",
        arguments: [engineTipArgument, .positional("action", help: "The action's id, as in the tip file (learn-more)."), engineParamOption],
        examples: ["tipcat engine action FavoriteBackyardTip learn-more"])

    static let engineShouldDisplay = engineCommand("should-display",
        "Ask whether the app may show a tip now: yes, or no with the reason (a suppressed tip is logged in the events log).",
        arguments: [engineTipArgument, engineParamOption, engineJSONFlag],
        examples: ["tipcat engine should-display FavoriteBackyardTip"])

    static let engineEvents = engineCommand("events", "Print the events log (shown, closed, actionPerformed, invalidated, suppressed), oldest first.",
        discussion: """
          The engine commands append every display, closed display, action, invalidation and suppressed \
          should-display answer to <state>.events.jsonl, one JSON object a line. Lines that are not events \
          are reported as FILE:LINE and skipped.
          """,
        arguments: [
          .option("since", valueName: "time", help: "Only events at or after this ISO 8601 time, or this long ago (30m, 1h, 7d)."),
          engineJSONFlag,
        ],
        examples: ["tipcat engine events", "tipcat engine events --since 1h --json"])

    static let engineWhy = engineCommand("why", "Explain why a tip is or is not showing: every rule with its values, frequency, group, overrides.",
        arguments: [engineTipArgument, engineParamOption, engineJSONFlag],
        examples: ["tipcat engine why FavoriteBackyardTip", "tipcat engine why NewTrailTip --param trail.id=silver-lake --param trail.name='Silver Lake' --param trail.region=Wasatch"])

    static let engineReset = engineCommand("reset", "Forget the device state (all of it, or one tip's eligibility).",
        arguments: [.positional("tip", help: "Only reset this tip's status, display count and duration.", required: false), engineParamOption],
        examples: ["tipcat engine reset", "tipcat engine reset ShowLocationTip"])

    static let engineResetEligibility = engineCommand("reset-eligibility",
        "Make an invalidated tip eligible again: its status, display count and duration start over (TipKit's resetEligibility()).",
        arguments: [engineTipArgument, engineParamOption],
        examples: ["tipcat engine reset-eligibility ShowLocationTip"])

    static let engineDeleteDonations = engineCommand("delete-donations",
        "Delete every donation of an event (TipKit's Event.deleteDonations()); rules counting it start from zero.",
        arguments: [.positional("event", help: "The event id, as in events.json (opened-map).")],
        examples: ["tipcat engine delete-donations opened-map"])

    static let engineSimulate = engineCommand("simulate", "Run a simulation script on an in-memory state and print its transcript.",
        discussion: """
          A script is a timeline: 'at 2026-01-05T08:00 donate opened-map', 'advance 7d', \
          'expect next FavoriteBackyardTip', 'restart'… (see ENGINE-SEMANTICS.md). It starts from a \
          fresh state, or with --from-state from a copy of the state database (--state); the \
          database itself is never written. The clock starts at 2026-01-01T00:00:00Z: give the \
          first line an 'at'. The first unmet expectation stops the run: its file:line:col and \
          the tip's explanation go to stderr, exit status 1.
          """,
        arguments: [
          .positional("script", help: "The .tipsim file.", completion: .file(extensions: ["tipsim"])),
          .flag("changes-only", help: "Print only the steps that changed a status or the next tip."),
          .flag("from-state", help: "Start from a copy of the state database instead of a fresh state."),
          .flag("events", help: "After the transcript, print the run's events (the events log's JSON lines); nothing is logged."),
        ],
        examples: ["tipcat engine simulate Tests/TipcatEngineTests/Scenarios/demo-week.tipsim",
                   "tipcat engine simulate what-if.tipsim --from-state --state .tipcat/state.sqlite"])

    static let engineExportState = engineCommand("export-state",
        "Write this device's state (donations, tip states, parameters) as a state file, for merge-state on another device.",
        discussion: """
          The state file is JSON (format 1, with this device's id); see the README for its members. Without -o it \
          goes to standard output.
          """,
        arguments: [
          .option("output", short: "o", valueName: "file", help: "Where to write the state file ('-' for standard output).",
                  default: "-", completion: .file(extensions: ["json"])),
        ],
        examples: ["tipcat engine export-state -o phone.state.json", "tipcat engine export-state --state laptop.sqlite > laptop.state.json"])

    static let engineMergeState = engineCommand("merge-state",
        "Merge other devices' state files into this device's state (a union: the order and repetition of merges do not matter).",
        discussion: """
          Donations are a union by donation id; display counts and durations add per device; the earliest \
          invalidation wins; parameters keep their last write (hybrid logical clock); donations beyond the \
          catalog's donationLimit are pruned, oldest first. Every file is checked first: a file that is not \
          JSON, truncated, of a newer format or malformed is reported as FILE:LINE:COLUMN and nothing is merged.
          """,
        arguments: [
          .positional("files", help: "State files (tipcat engine export-state).", repeating: true, completion: .file(extensions: ["json"])),
        ],
        examples: ["tipcat engine merge-state phone.state.json", "tipcat engine merge-state phone.state.json tablet.state.json --state laptop.sqlite"])
}
