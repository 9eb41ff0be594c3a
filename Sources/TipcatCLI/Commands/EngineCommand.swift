import Foundation
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatLocalization
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
    private func withEngine(_ action: (inout TipEngineSession, EngineAccess.Source) throws -> Void) throws {
        let source = try access.source()
        var engine = try access.session(source)
        try action(&engine, source)
    }

    /// `tipcat engine status`.
    func status() throws { try withEngine { engine, source in try status(&engine, source) } }

    /// `tipcat engine donate`.
    func donate() throws { try withEngine { engine, source in try donate(&engine, source.catalog) } }

    /// `tipcat engine set`.
    func set() throws { try withEngine { engine, source in try set(&engine, source.catalog) } }

    /// `tipcat engine next`.
    func next() throws {
        try withEngine { engine, _ in
            let tip: TipInstanceID?
            if let group = arguments.value("group") {
                tip = try engine.currentTip(group: GroupID(group))
            } else {
                tip = try engine.next()
            }
            context.stdout.line(tip?.rawValue ?? "none")
        }
    }

    /// `tipcat engine show`.
    func show() throws { try withEngine { engine, _ in try show(&engine) } }

    /// `tipcat engine displayed`.
    func displayed() throws {
        try withEngine { engine, _ in
            let tip = try registeredTip(&engine)
            try engine.displayed(tip)
            context.stdout.line("\(tip): displayed \(try displayCount(&engine, tip)); \(try engine.status(of: tip))")
        }
    }

    /// `tipcat engine hidden`.
    func hidden() throws {
        try withEngine { engine, _ in
            let tip = try registeredTip(&engine)
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

    /// `tipcat engine why`.
    func why() throws {
        try withEngine { engine, _ in
            context.stdout.write(try engine.explain(try registeredTip(&engine)).description + "\n")
        }
    }

    /// `tipcat engine reset`: all of the state, or one tip's eligibility.
    func reset() throws {
        if arguments.positional("tip") == nil {
            _ = try access.source()  // As before: a full reset also needs a readable catalog source.
            return try resetAll()
        }
        try withEngine { engine, _ in
            let tip = try registeredTip(&engine)
            try engine.resetEligibility(tip)
            context.stdout.line("\(tip): eligibility reset; \(try engine.status(of: tip))")
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
        let catalog = engine.catalog
        guard let tip = catalog.tip(TipID(name.rawValue)) else {
            throw CommandError.failure("unknown tip '\(name)'" + Suggestions.didYouMean(name.rawValue, in: catalog.tips.map(\.id.rawValue)))
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
        let id = try engine.instance(tip)
        let summary = try engine.tips().first { $0.instance == tip } ?? engine.tips().first { $0.tip == id.tip }
        let count = summary?.displayCount ?? 0
        return count == 1 ? "1 time" : "\(count) times"
    }

    private func invalidate(_ engine: inout TipEngineSession, _ reason: TipInvalidationReason) throws {
        let tip = try registeredTip(&engine)
        try engine.invalidate(tip, reason: reason)
        context.stdout.line("\(tip): \(try engine.status(of: tip))")
    }

    // MARK: status

    private func status(_ engine: inout TipEngineSession, _ source: EngineAccess.Source) throws {
        let out = context.stdout
        out.line("catalog:   \(source.label)")
        out.line("state:     \(access.statePath)")
        out.line("now:       \(engine.now)")
        out.line("frequency: \(engine.displayFrequency)")
        if !source.catalog.settings.enabled { out.line("kill switch: the catalog is disabled; no tip shows") }
        for diagnostic in engine.diagnostics { context.stderr.line("warning: \(diagnostic.message) (this tip never shows)") }
        let tips = try engine.tips()
        let width = max(4, tips.map(\.instance.rawValue.count).max() ?? 0)
        out.line("")
        out.line("TIP".padding(toLength: width, withPad: " ", startingAt: 0) + "  STATUS                            SHOWN  ON SCREEN")
        for tip in tips {
            let status = tip.status.description.padding(toLength: 32, withPad: " ", startingAt: 0)
            let shown = String(tip.displayCount)
            out.line(tip.instance.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + status + "  "
                     + String(repeating: " ", count: max(0, 5 - shown.count)) + shown + "  " + (tip.isOnScreen ? "yes" : "no"))
        }
        out.line("")
        out.line("next: " + (try engine.next()?.rawValue ?? "none"))
    }

    // MARK: donate and set

    private func donate(_ engine: inout TipEngineSession, _ catalog: Catalog) throws {
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
        try engine.donate(event.id, values, at: date)
        let shown = event.fields.compactMap { field in values[field.name].map { "\(field.name)=\($0.displayText)" } }
        context.stdout.line("donated #\(eventName)" + (shown.isEmpty ? "" : " " + shown.joined(separator: " ")) + " at \(date ?? engine.now)")
    }

    private func set(_ engine: inout TipEngineSession, _ catalog: Catalog) throws {
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
        try engine.setParameter(parameter.name, to: value)
        context.stdout.line("$\(name) = \(value.displayText)" + (parameter.lifetime == .transient ? " (transient: until the next engine start)" : ""))
    }

    // MARK: show

    private func show(_ engine: inout TipEngineSession) throws {
        let name = try registeredTip(&engine)
        let instance = try engine.instance(name)
        let catalog = engine.catalog
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
        let terminal = TerminalEnvironment(variables: context.environment, isTTY: context.stdout.isTerminal, windowColumns: context.terminalColumns)
        let colorChoice = ColorChoice(rawValue: arguments.value("color") ?? "auto") ?? .auto
        let depth = style.manifest.output == .ansi ? Terminal.colorDepth(choice: colorChoice, environment: terminal) : .none
        let width = Terminal.width(option: try WidthOption.columns(in: arguments), environment: terminal)
        let renderer = TipRenderer(style: style, settings: RenderSettings(width: width, colorDepth: depth))
        let device = try DeviceOption.device(in: arguments)
        let resolved = try TipResolver(catalog: catalog).resolve(
            tip, locale: locale, parameters: instance.parameters, useExample: instance.parameters.isEmpty, device: device)
        let text = try renderer.render(resolved)
        context.stdout.write(text.hasSuffix("\n") ? text : text + "\n")
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
        let source = try access.source()
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.failure("cannot read the script '\(path)'")
        }
        let parsed = SimulationScript.parse(SourceFile(path: path, bytes: [UInt8](data)), catalog: source.catalog)
        let errors = parsed.diagnostics.filter { $0.severity == .error }
        if !parsed.diagnostics.isEmpty { context.stderr.write(DiagnosticFormat.text.render(parsed.diagnostics)) }
        if !errors.isEmpty {
            throw CommandError.failure("\(path): \(errors.count) \(plural(errors.count, "error")); nothing was run")
        }
        var runner = SimulationRunner(catalog: source.catalog, revision: source.revision, environment: context.environment)
        if arguments.flag("from-state") { runner.initialState = try savedState() }
        let result = runner.run(parsed.script)
        let transcript = result.transcriptText(changesOnly: arguments.flag("changes-only"))
        context.stdout.write(transcript.isEmpty || transcript.hasSuffix("\n") ? transcript : transcript + "\n")
        if let failure = result.failure {
            context.stderr.line(failure.description)
            throw CommandError.exit(.failure)
        }
        context.stdout.line("\(path): \(result.stepsRun) steps, \(result.expectationsMet) expectations met")
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
