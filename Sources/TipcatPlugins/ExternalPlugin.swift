import Foundation
import TipcatCore
public import TipcatPlugin
import TipcatJSON
import TipcatText

/// Why an external plugin's answer cannot be used. Always names the plugin; `description` is one line for a
/// diagnostic, with the tail of the plugin's standard error (sanitized) when it wrote any.
public struct PluginFailure: Error, Sendable, CustomStringConvertible {
    public var plugin: String
    public var reason: String
    public var stderrTail: String

    public var description: String {
        let tail = stderrTail.isEmpty ? "" : "; its stderr ends: \(stderrTail)"
        return "plugin '\(plugin)' \(reason)\(tail)"
    }
}

/// An external plugin ready to run: its spec and the resolved program.
public struct ExternalPlugin: Sendable {
    public var spec: ExternalPluginSpec
    /// The program's absolute path, nil when it could not be found.
    public var executable: String?
    /// The catalog directory, absolute: the plugin's working directory.
    public var directory: String
    public var environment: [String: String]

    /// Standard output larger than this is refused (and the plugin killed).
    public static let maxResponseBytes = 64 << 20

    public init(spec: ExternalPluginSpec, directory: String, environment: [String: String]) {
        self.spec = spec
        self.directory = directory
        self.environment = environment
        let program = spec.commandLine[0]
        executable = resolveExecutable(program, directory: directory, environment: environment)
    }

    /// Why the program cannot run, if it cannot.
    public var notFoundReason: String? {
        guard executable == nil else { return nil }
        let program = spec.commandLine[0]
        if spec.command == nil {
            return "plugin '\(spec.name)' has no 'command' and no executable '\(program)' is on PATH"
        }
        return program.contains("/")
            ? "plugin '\(spec.name)': '\(program)' is not an executable file (relative paths start at the catalog directory)"
            : "plugin '\(spec.name)': '\(program)' is not found on PATH"
    }

    /// Sends one request and decodes the answer; every way this can go wrong is a `PluginFailure`.
    public func run(_ request: some RequestBody, kind: RequestKind) -> Result<PluginResponse, PluginFailure> {
        start().flatMap { finish($0, request: request, kind: kind) }
    }

    /// Starts the program, which then waits for its request (so its start-up overlaps tipcat's own work).
    public func start() -> Result<RunningChild, PluginFailure> {
        guard let executable else {
            return .failure(PluginFailure(plugin: spec.name, reason: "cannot start: " + (notFoundReason ?? "not found"), stderrTail: ""))
        }
        var environment = self.environment
        environment["TIPCAT_PLUGIN_PROTOCOL"] = PluginProtocol.version
        environment["TIPCAT_PLUGIN_NAME"] = spec.name
        environment["TIPCAT_CATALOG"] = directory
        let process = ChildProcess(
            executable: executable, arguments: Array(spec.commandLine.dropFirst()), directory: directory,
            environment: environment, timeout: spec.timeout, stdoutLimit: ExternalPlugin.maxResponseBytes)
        do {
            return .success(try process.start())
        } catch {
            return .failure(PluginFailure(plugin: spec.name, reason: "cannot start: \(error.description)", stderrTail: ""))
        }
    }

    /// Sends the request to a started plugin and decodes its answer.
    public func finish(_ child: RunningChild, request: some RequestBody, kind: RequestKind) -> Result<PluginResponse, PluginFailure> {
        ExternalPlugin.decode(child.communicate(input: request), plugin: spec.name, kind: kind)
    }

    /// Checks how the plugin ended, then its answer: protocol version first, then the members the kind needs.
    static func decode(_ outcome: ChildOutcome, plugin: String, kind: RequestKind) -> Result<PluginResponse, PluginFailure> {
        let tail = cleanTail(outcome.stderrTail)
        func fail(_ reason: String) -> Result<PluginResponse, PluginFailure> {
            .failure(PluginFailure(plugin: plugin, reason: reason, stderrTail: tail))
        }
        switch outcome.termination {
        case .timedOut(let seconds):
            return fail("timed out after \(formatSeconds(seconds)) and was killed (raise 'timeout' in plugins.json if it needs longer)")
        case .outputTooLarge(let limit):
            return fail("answered more than \(limit >> 20) MiB and was killed")
        case .signaled(let signal):
            return fail("was killed by signal \(signal) (\(signalName(signal)))")
        case .exited(let status) where status != 0:
            return fail("exited with status \(status)")
        case .exited:
            break
        }
        guard outcome.stdout.contains(where: { !isJSONSpace($0) }) else {
            return fail("exited without answering (nothing on standard output)")
        }
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(SourceFile(path: "<\(plugin) output>", bytes: outcome.stdout))
        } catch {
            let location = SourceFile(path: "", bytes: outcome.stdout).location(ofByte: error.offset)
            return fail("answered invalid JSON (line \(location.line), column \(location.column): \(error.message))")
        }
        guard case .object(let object) = document.root.value else {
            return fail("answered \(document.root.value.kindName), not a JSON object")
        }
        guard let version = object["protocol"]?.value.stringValue else {
            return fail("answered without a 'protocol' member; it must be \"\(PluginProtocol.version)\"")
        }
        guard version == PluginProtocol.version else {
            return fail("speaks \(Sanitizer.terminalSafe(String(version.prefix(80)))); tipcat speaks \(PluginProtocol.version)")
        }
        let response: PluginResponse
        do {
            response = try JSONDecoder().decode(PluginResponse.self, from: Data(outcome.stdout))
        } catch {
            return fail("answered JSON that is not a \(kind.rawValue) response: \(describe(error))")
        }
        switch kind {
        case .describe where response.description == nil:
            return fail("answered describe without a 'description' member")
        case .generate where response.files == nil:
            return fail("answered generate without a 'files' array")
        case .lint where response.diagnostics == nil, .prePublish where response.diagnostics == nil:
            return fail("answered \(kind.rawValue) without a 'diagnostics' array")
        default:
            return .success(response)
        }
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The last line or two of standard error, safe for a terminal and short.
    static func cleanTail(_ bytes: [UInt8]) -> String {
        let text = Sanitizer.terminalSafe(String(decoding: bytes, as: UTF8.self))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).suffix(3)
        var joined = lines.joined(separator: " | ").trimmingCharacters(in: .whitespaces)
        if joined.count > 400 { joined = "…" + joined.suffix(400) }
        return joined
    }

    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "the top level" : "'" + keys.joined(separator: ".") + "'"
        }
        switch decoding {
        case .keyNotFound(let key, let context): return "\(path(context)) lacks '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(decoding)"
        }
    }
}

/// `500 ms`, `10 s`, `1.5 s`.
public func formatSeconds(_ seconds: Double) -> String {
    seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms"
        : seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
}

func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGKILL: "SIGKILL"
    case SIGSEGV: "SIGSEGV"
    case SIGABRT: "SIGABRT"
    case SIGTERM: "SIGTERM"
    case SIGBUS: "SIGBUS"
    case SIGILL: "SIGILL"
    case SIGFPE: "SIGFPE"
    case SIGPIPE: "SIGPIPE"
    case SIGINT: "SIGINT"
    case SIGTRAP: "SIGTRAP"
    default: "signal \(signal)"
    }
}
