import Foundation
import TipcatArguments
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatJSON
import TipcatText

/// The events log of the engine commands: `<state>.events.jsonl`, its limits, and `tipcat engine events`.
extension EngineAccess {
    /// `--events-max-size` > `TIPCAT_EVENTS_MAX_SIZE` > 1 MiB; `--events-max-age` > `TIPCAT_EVENTS_MAX_AGE` > 30 days.
    func eventLog() throws -> TipEventLog {
        var limits = TipEventLog.Limits()
        if let (text, origin) = setting("events-max-size", "TIPCAT_EVENTS_MAX_SIZE") {
            guard let bytes = Self.byteCount(text), bytes >= TipEventLog.Limits.smallestMaxBytes else {
                throw CommandError.usage("\(origin) takes a size of at least 1KiB such as 512KiB, 1MiB or 2000000, not '\(Sanitizer.terminalSafe(text))'",
                                         command: command)
            }
            limits.maxBytes = bytes
        }
        if let (text, origin) = setting("events-max-age", "TIPCAT_EVENTS_MAX_AGE") {
            guard let span = TimeSpan(text), span.seconds > 0, span <= TimeSpan.longest else {
                throw CommandError.usage("\(origin) takes a duration such as 12h, 30d or 1w, not '\(Sanitizer.terminalSafe(text))'", command: command)
            }
            limits.maxAge = span
        }
        return TipEventLog(path: TipEventLog.path(forState: statePath), limits: limits)
    }

    /// An option's value, else an environment variable's, with what to call it in an error.
    private func setting(_ option: String, _ variable: String) -> (String, String)? {
        if let value = arguments.optionValues[option]?.last { return (value, "--\(option)") }
        if let value = context.environment[variable], !value.isEmpty { return (value, variable) }
        return nil
    }

    /// `2000000`, `64KiB`, `64K`, `64KB`, `1MiB`, `1M`, `1MB` (K and M are 1024 and 1024²).
    static func byteCount(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1024), ("KB", 1024), ("K", 1024), ("MiB", 1 << 20), ("MB", 1 << 20), ("M", 1 << 20), ("B", 1)]
        var number = Substring(text)
        var multiplier = 1
        if let unit = units.first(where: { text.hasSuffix($0.0) }) {
            number = number.dropLast(unit.0.count)
            multiplier = unit.1
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(number),
              value <= Int.max / multiplier
        else { return nil }
        return value * multiplier
    }

    /// Appends what the session recorded to the events log. A failure is a warning: the engine call stands.
    func appendEvents(_ engine: inout TipEngineSession, log: TipEventLog) {
        let events = engine.takeEvents()
        guard !events.isEmpty else { return }
        do throws(TipEventLogError) {
            try log.append(events, now: engine.now)
        } catch {
            context.stderr.line("warning: \(Sanitizer.terminalSafe(error.description)); \(events.count) \(events.count == 1 ? "event was" : "events were") not logged")
        }
    }
}

extension EngineCommand {
    /// `tipcat engine events [--since T] [--json]`: the events log, oldest first.
    func events() throws {
        let access = self.access
        let log = try access.eventLog()
        var since: Timestamp?
        if let text = arguments.value("since") {
            if let time = Timestamp(iso8601: text) {
                since = time
            } else if let span = TimeSpan(text), span <= TimeSpan.longest {
                since = try access.clock().now - span
            } else {
                throw CommandError.usage("--since takes an ISO 8601 time (2026-01-05T08:00:00Z) or a duration back from now (30m, 1h, 7d), not '\(Sanitizer.terminalSafe(text))'",
                                         command: arguments.commandPath)
            }
        }
        let (all, problems) = try { () throws -> ([TipEvent], [TipEventLog.LineProblem]) in
            do throws(TipEventLogError) {
                return try log.read()
            } catch {
                throw CommandError.failure(Sanitizer.terminalSafe(error.description))
            }
        }()
        for problem in problems {
            let location = SourceLocation(file: log.path, line: problem.line, column: 1)
            context.stderr.write(DiagnosticFormat.text.render([Diagnostic(problem.message + " (line skipped)", rule: .eventsLogLine, at: location)]))
        }
        let events = since.map { since in all.filter { $0.time >= since } } ?? all
        if arguments.flag("json") {
            context.stdout.json(.object([
                ("log", .string(log.path)),
                ("events", .array(events.map(Self.json))),
                ("skippedLines", .array(problems.map { .object([("line", .int($0.line)), ("message", .string($0.message))]) })),
            ]))
            return
        }
        if events.isEmpty {
            context.stderr.line("\(log.path): no events" + (since.map { " since \($0)" } ?? ""))
            return
        }
        let rows = events.map { event in
            [event.time.iso8601, event.kindName, Sanitizer.terminalSafe(event.instance.rawValue),
             Sanitizer.terminalSafe(event.details.map { "\($0.name)=\($0.value)" }.joined(separator: " "))]
        }
        let headers = ["TIME", "KIND", "TIP", "DETAILS"]
        var widths = headers.map { DisplayWidth.of($0) }
        for row in rows { for column in 0..<3 { widths[column] = max(widths[column], DisplayWidth.of(row[column])) } }
        func line(_ cells: [String]) -> String {
            var text = ""
            for column in 0..<3 { text += cells[column] + String(repeating: " ", count: widths[column] - DisplayWidth.of(cells[column]) + 2) }
            return text + cells[3]
        }
        context.stdout.line(line(headers).trimmingTrailingSpaces)
        for row in rows { context.stdout.line(line(row).trimmingTrailingSpaces) }
    }

    /// An event as `engine events --json` prints it: the log line's members.
    static func json(_ event: TipEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [("time", .string(event.time.iso8601)), ("kind", .string(event.kindName)),
                                              ("tip", .string(event.tip.rawValue))]
        if event.instance.rawValue != event.tip.rawValue { members.append(("instance", .string(event.instance.rawValue))) }
        members.append(("details", .object(event.details.map { name, value in
            switch value {
            case .string(let text): (name, JSONValue.string(text))
            case .number(let number): (name, JSONValue.seconds(number))
            }
        })))
        return .object(members)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
