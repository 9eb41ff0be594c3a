import Foundation
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatJSON
import TipcatLocalization
import TipcatRules
import TipcatPlugins
import TipcatRender
import TipcatTemplates
import TipcatText

/// `tipcat engine SUBCOMMAND`: one engine call per process, state in the SQLite state database.
struct EngineCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    var access: EngineAccess { EngineAccess(arguments: arguments, context: context) }

    /// Runs `action` on an engine session over the command's catalog source; engine errors reach the funnel.
    private func withEngine(useSnapshot: Bool = true, _ action: (inout TipEngineSession, EngineAccess.Source) throws -> Void) throws {
        let access = self.access
        let log = try access.eventLog()
        let source = try access.source(useSnapshot: useSnapshot)
        PhaseTrace.mark("engine: catalog read")
        var engine = try access.session(source)
        PhaseTrace.mark("engine: started")
        engine.recordsEvents = true
        defer { ProcessLifetime.keepUntilExit(engine) }
        // Events of a call that failed part-way (a display already counted) are logged too.
        defer { access.appendEvents(&engine, log: log) }
        try action(&engine, source)
        PhaseTrace.mark("engine: command done")
    }

    /// `tipcat engine status`.
    func status() throws { try withEngine { engine, source in try status(&engine, source) } }

    /// `tipcat engine donate`.
    func donate() throws {
        if let batch = arguments.value("batch") {
            guard arguments.positional("event") == nil, arguments.values("fields").isEmpty, arguments.value("at") == nil else {
                throw CommandError.usage("--batch reads every donation from the file; name no event, fields or --at", command: arguments.commandPath)
            }
            return try withEngine { engine, source in try donateBatch(&engine, source.declarations, path: batch) }
        }
        // A donation reads no tip: with a prepared snapshot of the version, only the declarations are read and
        // the donation is stored without starting the engine (which reads it when it next starts).
        if let catalog = try access.snapshotDeclarations() {
            let (event, values, date) = try donation(in: catalog)
            var store = try access.stateStore()
            let when = try TipEngineSession.recordDonation(of: event, values, at: date, now: try access.clock().now, in: &store)
            return printDonation(event, values, at: when)
        }
        try withEngine { engine, source in try donate(&engine, source.declarations) }
    }

    /// `tipcat engine set`.
    func set() throws {
        // Setting a parameter reads no tip either: with a prepared snapshot it is stored without starting the engine.
        if let catalog = try access.snapshotDeclarations() {
            let (parameter, value) = try parameterValue(in: catalog)
            var store = try access.stateStore()
            try TipEngineSession.recordParameter(parameter, value, in: &store)
            return printParameter(parameter, value)
        }
        try withEngine { engine, source in try set(&engine, source.declarations) }
    }

    /// `tipcat engine next`.
    func next() throws {
        try withEngine { engine, _ in
            let tip: TipInstanceID?
            if let group = arguments.value("group") {
                tip = try engine.currentTip(group: GroupID(group))
            } else {
                tip = try engine.next()
            }
            if arguments.flag("json") {
                context.stdout.json(.object([
                    ("next", tip.map { JSONValue.string($0.rawValue) } ?? .null),
                    ("group", arguments.value("group").map(JSONValue.string) ?? .null),
                ]))
                return
            }
            context.stdout.line(tip?.rawValue ?? "none")
        }
    }

    /// `tipcat engine show`.
    func show() throws { try withEngine { engine, source in try show(&engine, source) } }

    /// `tipcat engine displayed`.
    func displayed() throws {
        try withEngine { engine, _ in
            let name = try registeredTip(&engine)
            let tip = try engine.instanceID(name)
            try engine.displayed(tip)
            context.stdout.line("\(tip): displayed \(try displayCount(&engine, tip)); \(try engine.status(of: tip))")
        }
    }

    /// `tipcat engine hidden`.
    func hidden() throws {
        try withEngine { engine, _ in
            let name = try registeredTip(&engine)
            let tip = try engine.instanceID(name)
            try engine.hidden(tip)
            context.stdout.line("\(tip): hidden; \(try engine.status(of: tip))")
        }
    }

    /// `tipcat engine dismiss`.
    func dismiss() throws { try withEngine { engine, _ in try invalidate(&engine, .tipClosed) } }

    /// `tipcat engine invalidate`.
    func invalidate() throws {
        guard let text = arguments.value("reason"), let reason = TipInvalidationReason(rawValue: text) else {
            throw CommandError.usage("--reason is one of " + TipInvalidationReason.allCases.map(\.rawValue).joined(separator: ", "), command: arguments.commandPath)
        }
        try withEngine { engine, _ in try invalidate(&engine, reason) }
    }

    /// `tipcat engine action TIP ACTION`: the user chose one of the tip's actions (logged), and the tip is
    /// invalidated with actionPerformed.
    func action() throws {
        guard let action = arguments.positional("action") else {
            throw CommandError.usage("name one of the tip's actions", command: arguments.commandPath)
        }
        try withEngine { engine, _ in
            let name = try registeredTip(&engine)
            let tip = try engine.instanceID(name)
            try engine.performAction(tip, action: action)
            context.stdout.line("\(Sanitizer.terminalSafe(tip.rawValue)): action \(Sanitizer.terminalSafe(action)); \(try engine.status(of: tip))")
        }
    }

    /// `tipcat engine should-display TIP`: whether the app may show the tip now, and if not why (a suppressed
    /// tip is logged).
    func shouldDisplay() throws {
        try withEngine { engine, _ in
            let name = try registeredTip(&engine)
            let tip = try engine.instanceID(name)
            let decision = try engine.displayDecision(tip)
            if arguments.flag("json") {
                var members: [(String, JSONValue)] = [("tip", .string(tip.rawValue)), ("show", .bool(decision == .show))]
                switch decision {
                case .show: break
                case .suppressed(let reason): members.append(("suppressed", .string(reason.rawValue)))
                case .invalidated(let reason): members.append(("invalidated", .string(reason.rawValue)))
                }
                context.stdout.json(.object(members))
                return
            }
            let answer: String
            switch decision {
            case .show: answer = "yes"
            case .suppressed(let reason): answer = "no (suppressed: \(reason.rawValue))"
            case .invalidated(let reason): answer = "no (invalidated: \(reason.rawValue))"
            }
            context.stdout.line("\(Sanitizer.terminalSafe(tip.rawValue)): \(answer)")
        }
    }

    /// `tipcat engine why`.
    func why() throws {
        try withEngine { engine, _ in
            let name = try registeredTip(&engine)
            let explanation = try engine.explain(name)
            if arguments.flag("json") {
                context.stdout.json(Self.json(explanation))
            } else {
                context.stdout.write(explanation.description + "\n")
            }
        }
    }

    /// `tipcat engine reset`: all of the state, or one tip's eligibility.
    func reset() throws {
        if arguments.positional("tip") == nil {
            _ = try access.source()  // As before: a full reset also needs a readable catalog source.
            return try resetAll()
        }
        try resetEligibility()
    }

    /// `tipcat engine reset-eligibility TIP` (and `engine reset TIP`).
    func resetEligibility() throws {
        try withEngine { engine, _ in
            let tip = try registeredTip(&engine)
            try engine.resetEligibility(tip)
            context.stdout.line("\(tip): eligibility reset; \(try engine.status(of: tip))")
        }
    }

    /// `tipcat engine delete-donations EVENT`.
    func deleteDonations() throws {
        guard let name = arguments.positional("event") else {
            throw CommandError.usage("name an event", command: arguments.commandPath)
        }
        try withEngine { engine, _ in
            let event = EventID(name.hasPrefix("#") ? String(name.dropFirst()) : name)
            try engine.deleteDonations(event)
            context.stdout.line("#\(event.rawValue): donations deleted")
        }
    }

    private func tip() throws -> TipInstanceID {
        guard let name = arguments.positional("tip") else {
            throw CommandError.usage("name a tip", command: arguments.commandPath)
        }
        return TipInstanceID(name)
    }

    /// With `--param`: registers the instance of the named tip with those values and returns its custom ID.
    private func registeredTip(_ engine: inout TipEngineSession) throws -> TipInstanceID {
        let name = try tip()
        let pairs = arguments.values("param")
        guard !pairs.isEmpty else { return name }
        guard let tip = engine.tip(TipID(name.rawValue)) else {
            throw CommandError.failure("unknown tip '\(name)'" + Suggestions.didYouMean(name.rawValue, in: engine.tipIDs.map(\.rawValue)))
        }
        var values: [String: Value] = [:]
        for item in pairs {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CommandError.usage("--param takes name=value (trail.id=butler-fork), not '\(item)'", command: arguments.commandPath)
            }
            let path = String(item[..<equals])
            let text = String(item[item.index(after: equals)...])
            guard let type = tip.parameterType(atPath: path) else {
                throw CommandError.failure("\(tip.id) has no parameter '\(path)'" + Suggestions.didYouMean(path, in: tip.parameters.map(\.name)))
            }
            if type.isOptional, text.isEmpty {
                // `name=`: an optional parameter (or field) left absent.
                if !path.contains(".") { values[path] = nil }
                continue
            }
            guard let value = ParameterValues.parse(text, as: type) else {
                throw CommandError.failure("parameter '\(path)' of \(tip.id) is \(type), not '\(text)'")
            }
            let parts = path.split(separator: ".").map(String.init)
            values[parts[0]] = Self.setting(value, at: parts.dropFirst(), in: values[parts[0]])
        }
        return try engine.register(tip.id, parameters: values)
    }

    /// `value` placed at a field path inside a record (created as needed).
    static func setting(_ value: Value, at path: ArraySlice<String>, in existing: Value?) -> Value {
        guard let field = path.first else { return value }
        var fields: [String: Value] = [:]
        if case .record(let current)? = existing { fields = current }
        fields[field] = setting(value, at: path.dropFirst(), in: fields[field])
        return .record(fields)
    }

    private func displayCount(_ engine: inout TipEngineSession, _ tip: TipInstanceID) throws -> String {
        let count = try engine.tips().first { $0.instance == tip }?.displayCount ?? 0
        return count == 1 ? "1 time" : "\(count) times"
    }

    private func invalidate(_ engine: inout TipEngineSession, _ reason: TipInvalidationReason) throws {
        let tip = try registeredTip(&engine)
        try engine.invalidate(tip, reason: reason)
        context.stdout.line("\(tip): \(try engine.status(of: tip))")
    }

    // MARK: status

    private func status(_ engine: inout TipEngineSession, _ source: EngineAccess.Source) throws {
        if arguments.flag("json") {
            let rows = try Self.statusRows(&engine)
            let next = try engine.next()
            context.stdout.json(.object([
                ("catalog", .string(source.label)),
                ("state", .string(access.statePath)),
                ("now", .string(engine.now.description)),
                ("displayFrequency", .string(engine.displayFrequency.description)),
                ("enabled", .bool(source.declarations.settings.enabled)),
                ("warnings", .array(engine.diagnostics.map { .string($0.message) })),
                ("tips", .array(rows.map { row in
                    guard let summary = row.summary else {
                        return .object([
                            ("instance", .null), ("tip", .string(row.tip.rawValue)), ("status", .null),
                            ("displayCount", .int(0)), ("onScreen", .bool(false)),
                        ])
                    }
                    return .object([
                        ("instance", .string(summary.instance.rawValue)), ("tip", .string(row.tip.rawValue)),
                        ("status", .string(summary.status.description)), ("displayCount", .int(summary.displayCount)),
                        ("onScreen", .bool(summary.isOnScreen)),
                    ])
                })),
                ("next", next.map { JSONValue.string($0.rawValue) } ?? .null),
            ]))
            return
        }
        let out = context.stdout
        out.line("catalog:   \(source.label)")
        out.line("state:     \(access.statePath)")
        out.line("now:       \(engine.now)")
        out.line("frequency: \(engine.displayFrequency)")
        if !source.declarations.settings.enabled { out.line("kill switch: the catalog is disabled; no tip shows") }
        for diagnostic in engine.diagnostics { context.stderr.line("warning: \(diagnostic.message) (this tip never shows)") }
        let rows = try Self.statusRows(&engine)
        let width = max(4, rows.map(\.name.count).max() ?? 0)
        let statusWidth = max(32, rows.map(\.status.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        out.line("")
        out.line(pad("TIP", width) + "  " + pad("STATUS", statusWidth) + "  SHOWN  ON SCREEN")
        for row in rows {
            out.line(pad(row.name, width) + "  " + pad(row.status, statusWidth) + "  "
                     + String(repeating: " ", count: max(0, 5 - row.shown.count)) + row.shown + "  " + row.onScreen)
        }
        out.line("")
        out.line("next: " + (try engine.next()?.rawValue ?? "none"))
    }

    /// One line of `status`: every instance, and each tip with parameters that has no instance yet.
    struct StatusRow {
        var name: String
        var status: String
        var shown: String
        var onScreen: String
        /// nil for a tip with parameters and no instance.
        var summary: TipInstanceSummary?
        var tip: TipID
    }

    /// The rows of `status`, in catalog order.
    static func statusRows(_ engine: inout TipEngineSession) throws -> [StatusRow] {
        let summaries = try engine.tips()
        var byTip: [TipID: [TipInstanceSummary]] = [:]
        for summary in summaries { byTip[summary.tip, default: []].append(summary) }
        var rows: [StatusRow] = []
        for tip in engine.catalog.tips {
            guard let instances = byTip[tip.id], !instances.isEmpty else {
                if !tip.parameters.isEmpty {
                    rows.append(StatusRow(name: tip.id.rawValue, status: "no instance yet (needs parameters)", shown: "-",
                                          onScreen: "-", summary: nil, tip: tip.id))
                }
                continue
            }
            for summary in instances {
                rows.append(StatusRow(name: summary.instance.rawValue, status: summary.status.description,
                                      shown: String(summary.displayCount), onScreen: summary.isOnScreen ? "yes" : "no",
                                      summary: summary, tip: tip.id))
            }
        }
        return rows
    }

    /// `why --json`: the explanation as a document.
    static func json(_ explanation: TipExplanation) -> JSONValue {
        .object([
            ("instance", .string(explanation.instance.rawValue)),
            ("tip", .string(explanation.tip.rawValue)),
            ("now", .string(explanation.now.description)),
            ("status", .string(explanation.status.description)),
            ("mayShow", .bool(explanation.mayShow)),
            ("isNext", .bool(explanation.isNext)),
            ("reasons", .array(explanation.reasons.map { .string($0.description) })),
            ("rules", .array(explanation.rules.map { rule in
                .object([
                    ("source", .string(rule.source)),
                    ("holds", .bool(rule.holds)),
                    ("conditions", .array(rule.conditions.map { condition in
                        .object([
                            ("text", .string(condition.text)), ("holds", .bool(condition.holds)),
                            ("summary", .string(condition.summary)),
                        ])
                    })),
                ])
            })),
            ("displayCount", .int(explanation.displayCount)),
            ("maxDisplayCount", explanation.maxDisplayCount.map(JSONValue.int) ?? .null),
            ("displayDuration", .seconds(explanation.displayDuration.seconds)),
            ("maxDisplayDuration", explanation.maxDisplayDuration.map { JSONValue.seconds($0.seconds) } ?? .null),
            ("onScreen", .bool(explanation.isOnScreen)),
            ("displayFrequency", .string(explanation.displayFrequency.description)),
            ("ignoresDisplayFrequency", .bool(explanation.ignoresDisplayFrequency)),
            ("group", explanation.group.map { JSONValue.string($0.rawValue) } ?? .null),
            ("override", explanation.override.map { JSONValue.string($0.description) } ?? .null),
            ("catalogEnabled", .bool(explanation.catalogEnabled)),
        ])
    }

    // MARK: donate and set

    private func donate(_ engine: inout TipEngineSession, _ catalog: Catalog) throws {
        let (event, values, date) = try donation(in: catalog)
        try engine.donate(event.id, values, at: date)
        try engine.pruneStoredDonations(of: event.id)
        printDonation(event, values, at: date ?? engine.now)
    }

    /// The event, field values and `--at` time of `engine donate EVENT name=value…`, checked against `catalog`.
    private func donation(in catalog: Catalog) throws -> (EventDeclaration, [String: Value], Timestamp?) {
        guard let name = arguments.positional("event") else { throw CommandError.usage("name an event", command: arguments.commandPath) }
        let eventName = name.hasPrefix("#") ? String(name.dropFirst()) : name
        guard let event = catalog.event(EventID(eventName)) else {
            throw CommandError.failure("unknown event '\(eventName)'" + Suggestions.didYouMean(eventName, in: catalog.events.map(\.id.rawValue)))
        }
        var values: [String: Value] = [:]
        for item in arguments.values("fields") {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CommandError.usage("field values are written name=value, not '\(item)'", command: arguments.commandPath)
            }
            let field = String(item[..<equals])
            let text = String(item[item.index(after: equals)...])
            guard let declared = event.fields.first(where: { $0.name == field }) else {
                let names = event.fields.map(\.name)
                let known = names.isEmpty ? "; it has no fields" : Suggestions.didYouMean(field, in: names)
                throw CommandError.failure("#\(eventName) has no field '\(field)'" + known)
            }
            guard let value = ParameterValues.parse(text, as: declared.type) else {
                throw CommandError.failure("field '\(field)' of #\(eventName) is \(declared.type), not '\(text)'")
            }
            values[field] = value
        }
        var date: Timestamp?
        if let text = arguments.value("at") {
            guard let time = Timestamp(iso8601: text) else {
                throw CommandError.usage("--at takes an ISO 8601 time such as 2026-01-05T08:00:00Z, not '\(text)'", command: arguments.commandPath)
            }
            date = time
        }
        return (event, values, date)
    }

    private func printDonation(_ event: EventDeclaration, _ values: [String: Value], at date: Timestamp) {
        let shown = event.fields.compactMap { field in values[field.name].map { "\(field.name)=\($0.displayText)" } }
        context.stdout.line("donated #\(event.id)" + (shown.isEmpty ? "" : " " + shown.joined(separator: " ")) + " at \(date)")
    }

    private func set(_ engine: inout TipEngineSession, _ catalog: Catalog) throws {
        let (parameter, value) = try parameterValue(in: catalog)
        try engine.setParameter(parameter.name, to: value)
        printParameter(parameter, value)
    }

    /// The parameter and value of `engine set PARAMETER VALUE`, checked against `catalog`.
    private func parameterValue(in catalog: Catalog) throws -> (AppParameter, Value) {
        guard let given = arguments.positional("parameter"), let text = arguments.positional("value") else {
            throw CommandError.usage("give a parameter and a value", command: arguments.commandPath)
        }
        let name = given.hasPrefix("$") ? String(given.dropFirst()) : given
        guard let parameter = catalog.parameter(ParameterName(name)) else {
            throw CommandError.failure("unknown parameter '$\(name)'" + Suggestions.didYouMean(name, in: catalog.parameters.map(\.name.rawValue)).replacingOccurrences(of: "'", with: "'$", options: [], range: nil).replacingOccurrences(of: "$?", with: "?"))
        }
        guard let value = ParameterValues.parse(text, as: parameter.type) else {
            throw CommandError.failure("$\(name) is \(parameter.type), not '\(text)'")
        }
        return (parameter, value)
    }

    private func printParameter(_ parameter: AppParameter, _ value: Value) {
        context.stdout.line("$\(parameter.name) = \(value.displayText)" + (parameter.lifetime == .transient ? " (transient: until the next engine start)" : ""))
    }

    // MARK: show

    private func show(_ engine: inout TipEngineSession, _ source: EngineAccess.Source) throws {
        let name = try registeredTip(&engine)
        let instance = try engine.instance(name)
        // A snapshot's copy of the tip that does not hash right is never used: the version is read again.
        guard let catalog = try source.catalog(showing: instance.tip) ?? access.source(useSnapshot: false).catalog(showing: instance.tip) else {
            throw CommandError.failure("unknown tip '\(instance.tip)'")
        }
        guard let tip = catalog.tip(instance.tip) else { throw CommandError.failure("unknown tip '\(instance.tip)'") }
        let registry = PluginRegistry.styles(templatesDirectory: arguments.value("templates") ?? "Templates")
        let style: Style
        do {
            style = try registry.style(named: arguments.value("style") ?? "plain")
        } catch {
            let details = error.diagnostics.map(\.description).joined(separator: "\n")
            throw CommandError.failure(error.message + (details.isEmpty ? "" : "\n" + details))
        }
        var locale = catalog.settings.sourceLanguage
        if let text = arguments.value("locale") {
            guard let parsed = LocaleID(text) else {
                throw CommandError.usage("'\(text)' is not a locale identifier; use a language code such as 'fr', 'fr-CA' or 'ja'", command: arguments.commandPath)
            }
            locale = parsed
        }
        let renderer = TipRenderer(style: style, settings: try .forOutput(of: style, arguments: arguments, context: context))
        let device = try DeviceOption.device(in: arguments)
        let resolved = try TipResolver(catalog: catalog).resolve(
            tip, locale: locale, parameters: instance.parameters, useExample: instance.parameters.isEmpty, device: device)
        let text = try renderer.render(resolved)
        if arguments.flag("json") {
            context.stdout.json(.object([
                ("instance", .string(try engine.instanceID(name).rawValue)), ("tip", .string(tip.id.rawValue)),
                ("style", .string(style.name)), ("output", .string(style.manifest.output.rawValue)),
                ("locale", .string(locale.description)), ("text", .string(text)),
            ]))
            return
        }
        // ANSI output keeps its escape sequences (the style's escaper made the values safe).
        let output = style.manifest.output == .ansi ? context.stdout.unfiltered : context.stdout
        output.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    // MARK: reset

    private func resetAll() throws {
        var store = try access.stateStore()
        do {
            try store.removeAll()
        } catch {
            throw CommandError.failure("state database \(error.message)")
        }
        context.stdout.line("reset the state in \(access.statePath)")
    }

    // MARK: simulate

    /// `tipcat engine simulate`.
    func simulate() throws {
        guard let path = arguments.positional("script") else { throw CommandError.usage("name a script", command: arguments.commandPath) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.failure("cannot read the script '\(path)'")
        }
        let source = try access.source()
        let parsed = SimulationScript.parse(SourceFile(path: path, bytes: [UInt8](data)), catalog: source.catalog)
        let errors = parsed.diagnostics.filter { $0.severity == .error }
        if !parsed.diagnostics.isEmpty { context.stderr.write(DiagnosticFormat.text.render(parsed.diagnostics)) }
        if !errors.isEmpty {
            throw CommandError.failure("\(path): \(errors.count) \(plural(errors.count, "error")); nothing was run")
        }
        var runner = SimulationRunner(catalog: source.catalog, revision: source.revision, environment: context.environment)
        if arguments.flag("from-state") { runner.initialState = try savedState() }
        runner.recordsEvents = arguments.flag("events")
        let result = runner.run(parsed.script)
        let transcript = result.transcriptText(changesOnly: arguments.flag("changes-only"))
        context.stdout.write(transcript.isEmpty || transcript.hasSuffix("\n") ? transcript : transcript + "\n")
        if arguments.flag("events") {
            context.stdout.line("events:")
            for event in result.events { context.stdout.line(Sanitizer.terminalSafe(event.jsonLine)) }
        }
        if let failure = result.failure {
            context.stderr.line(failure.description)
            throw CommandError.exit(.failure)
        }
        context.stdout.line("\(path): \(result.stepsRun) \(plural(result.stepsRun, "step")), "
                            + "\(result.expectationsMet) \(plural(result.expectationsMet, "expectation")) met")
    }

    /// The state database's contents (`--from-state`): it must exist, and is only read.
    private func savedState() throws -> TipStateSnapshot {
        let path = access.statePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError.failure("no state database at '\(path)' to start the simulation from (pass --state)")
        }
        do {
            return try access.stateStore().load()
        } catch let error as TipStateStoreError {
            throw CommandError.failure("state database \(error.message)")
        }
    }
}
