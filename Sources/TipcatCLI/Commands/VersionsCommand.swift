import TipcatArguments
import TipcatJSON
import TipcatStore
import TipcatCodec

/// `tipcat versions`: the version history, as a table or JSON.
struct VersionsCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let store = try access.open(.readOnly)
        let records: [VersionRecord]
        let channels: [ChannelHead]
        channels = try store.channels()
        if let name = arguments.optionValues["channel"]?.last {
            let channel = try access.channel(named: name)
            guard channels.contains(where: { $0.name == channel.rawValue }) else {
                throw StoreError.unknownChannel(channel.rawValue)
            }
            records = try store.history(of: channel)
        } else {
            records = try store.versions()
        }
        var heads: [Int: [String]] = [:]
        for channel in channels { heads[channel.version, default: []].append(channel.name) }

        if arguments.flag("json") {
            let document: JSONValue = .object([
                ("store", .string(store.location)),
                ("channels", .object(channels.map { ($0.name, .int($0.version)) })),
                ("versions", .array(records.map { $0.json(heads: heads[$0.number] ?? []) })),
            ])
            context.stdout.json(document)
            return
        }
        guard !records.isEmpty else {
            context.stdout.line("No versions in \(store.location) yet; run 'tipcat publish'.")
            return
        }
        let rows = records.map { record -> [String] in
            let marks = heads[record.number].map { "  [" + $0.joined(separator: ", ") + "]" } ?? ""
            return [
                String(record.number), record.createdAt, record.type.rawValue, record.author, String(record.tipsChanged),
                record.contentHash.shortHex(), record.message + marks,
            ]
        }
        context.stdout.write(Table(header: ["VERSION", "PUBLISHED", "TYPE", "AUTHOR", "TIPS", "CONTENT", "MESSAGE"],
                                   rows: rows, rightAligned: [0, 4]).text)
    }
}

/// `tipcat show-version N`: one version's record, content and changes from its parent.
struct ShowVersionCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let text = arguments.positional("version") ?? ""
        if Int(text) == nil, text == "working" || text.isEmpty {
            throw CommandError.usage("show-version takes a version number or a channel name", command: access.command)
        }
        if let number = Int(text), number < 1 {
            throw CommandError.usage("versions are numbered from 1; '\(text)' is not one", command: access.command)
        }
        let store = try access.open(.readOnly)
        guard let record = try access.side(text, in: store).record else { return }
        let channels: [ChannelHead]
        let pieces: CatalogPieces
        let diff: CatalogDiff?
        let resets: [String]
        let parent: VersionRecord?
        channels = try store.channels()
        pieces = try store.pieces(of: record)
        parent = try record.parent.map { (number) throws(StoreError) in try store.requireVersion(number) }
        diff = try parent.map { (parent) throws(StoreError) in try store.diff(from: parent, to: record) }
        resets = try store.resets(of: record.number)
        let heads = channels.filter { $0.version == record.number }.map(\.name)
        let tips = pieces.owners.values.filter { $0.tip != nil }.count
        func count(_ value: JSONValue) -> Int { value.arrayValue?.count ?? 0 }
        let locales = pieces.settings.objectValue?["supportedLocales"]?.value.arrayValue?.compactMap(\.value.stringValue) ?? []

        if arguments.flag("json") {
            var pairs: [(String, JSONValue)] = [
                ("version", record.json(heads: heads)),
                ("content", .object([
                    ("tips", .int(tips)), ("groups", .int(count(pieces.groups))), ("events", .int(count(pieces.events))),
                    ("parameters", .int(count(pieces.parameters))), ("supportedLocales", .array(locales.map { .string($0) })),
                ])),
                ("resets", .array(resets.map { .string($0) })),
            ]
            if let diff { pairs.append(("changesFromParent", .object(DiffPrinter.json(diff)))) }
            context.stdout.json(JSONValue.object(pairs))
            return
        }
        var lines: [(String, String)] = [
            ("type", record.type.rawValue + (record.source.map { " (content of version \($0))" } ?? "")),
            ("channel", record.channel + (heads.isEmpty ? "" : "; head of " + heads.joined(separator: ", "))),
            ("parent", record.parent.map(String.init) ?? "none"),
            ("author", record.author),
            ("published", record.createdAt),
            ("message", record.message),
            ("content", record.contentHash.hex),
            ("tipcat", record.tipcatVersion),
            ("holds", "\(tips) \(plural(tips, "tip")), \(count(pieces.groups)) \(plural(count(pieces.groups), "group")), "
                + "\(count(pieces.events)) \(plural(count(pieces.events), "event")), \(count(pieces.parameters)) \(plural(count(pieces.parameters), "parameter")); locales \(locales.joined(separator: ", "))"),
        ]
        if !resets.isEmpty { lines.append(("resets", resets.joined(separator: ", "))) }
        var out = "version \(record.number)\n"
        let width = lines.map(\.0.count).max() ?? 0
        for (key, value) in lines { out += "  \(key):" + String(repeating: " ", count: width - key.count + 1) + value + "\n" }
        if let diff, let parent {
            out += "\nchanges from version \(parent.number) (\(record.tipsChanged) \(plural(record.tipsChanged, "tip"))):\n"
            out += diff.isEmpty ? "  none\n" : DiffPrinter.text(diff)
        }
        context.stdout.write(out)
    }
}

/// A plain text table: columns padded to their widest cell.
struct Table {
    var header: [String]
    var rows: [[String]]
    var rightAligned: Set<Int> = []

    var text: String {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
                if index == cells.count - 1 {
                    parts.append(rightAligned.contains(index) ? padding + cell : cell)
                } else {
                    parts.append(rightAligned.contains(index) ? padding + cell : cell + padding)
                }
            }
            return parts.joined(separator: "  ") + "\n"
        }
        return line(header) + rows.map(line).joined()
    }
}
