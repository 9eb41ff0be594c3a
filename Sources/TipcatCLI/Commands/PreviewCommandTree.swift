import TipcatArguments

extension CommandTree {
    static let preview = CommandSpec(
        name: "preview",
        abstract: "Write an HTML gallery of every tip in every locale; --serve serves it on 127.0.0.1 with live reload.",
        discussion: """
            Writes a static site with the html style (Templates/html: tip.mustache and tip.css): index.html lists \
            the tips by group with a search box and filters for locale and translation state; tips/<id>.html shows \
            one tip in every locale (the supported locales, then the pseudo-locales en-XA and ar-XB), each as an \
            inline card and as a popover, with its example parameter values, untranslated, fallback and \
            needs-review texts marked, and the tip's validate findings beside it. Pages carry a \
            Content-Security-Policy and no inline script; light and dark follow the system, with a toggle. \
            The output directory is replaced as a whole, and only when it is empty or an earlier preview. \
            --serve serves the site on 127.0.0.1 only and regenerates it when a catalog or template file \
            changes; open pages reload. A catalog with errors is still previewed (its findings are shown). \
            Exit status: 0 written (or served until Ctrl-C), 1 the site could not be written, 64 usage error.
            """,
        arguments: [
            catalogOption,
            .option("output", short: "o", valueName: "dir", help: "The site's directory (replaced as a whole).", default: ".tipcat/preview",
                    completion: .directory),
            .option("locale", valueName: "locale", help: "Show only these locales (repeatable; en-XA and ar-XB are pseudo-locales).", repeating: true),
            .flag("all-locales", help: "Show every supported locale and both pseudo-locales (the default)."),
            DeviceOption.spec,
            templatesOption,
            .flag("serve", help: "Serve the site on 127.0.0.1 and regenerate it when a catalog or template file changes (Ctrl-C to stop)."),
            .option("port", valueName: "port", help: "The port for --serve, 0 to 65535 (0: a free port the system picks).", default: "8765"),
            noPluginsFlag,
            .flag("json", help: "Print JSON: the output directory, the counts of tips, locales and files, and the findings (not with --serve)."),
        ],
        examples: [
            "tipcat preview",
            "tipcat preview --locale fr --locale ar -o site",
            "tipcat preview --serve --port 0",
        ])
}
