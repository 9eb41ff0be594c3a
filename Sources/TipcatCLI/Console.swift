import Synchronization
import TipcatJSON
import TipcatText
#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes. Real runs use the process's stdout/stderr; tests capture text.
public protocol TextOutput: Sendable {
    func write(_ text: String)
    /// Whether this output is an interactive terminal (decides progress lines and colors).
    var isTerminal: Bool { get }
}

/// A file descriptor, written through a buffer that is flushed at exit.
public final class FileOutput: TextOutput {
    /// The file descriptor written to (an external command inherits it).
    let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])
    public let isTerminal: Bool

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        self.isTerminal = isatty(descriptor) == 1
    }

    public func write(_ text: String) {
        let shouldFlush = buffer.withLock { bytes in
            bytes.append(contentsOf: text.utf8)
            return bytes.count > 64 * 1024 || isTerminal
        }
        if shouldFlush { flush() }
    }

    public func flush() {
        let bytes = buffer.withLock { bytes in
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return  // EPIPE and friends: the reader went away; nothing useful to do.
            }
            written += count
        }
    }
}

/// Captured text, for tests.
public final class CapturedOutput: TextOutput {
    private let storage = Mutex("")
    public let isTerminal: Bool

    public init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    public func write(_ text: String) { storage.withLock { $0 += text } }
    public var text: String { storage.withLock { $0 } }
}

/// Everything a command may read from the outside world: arguments aside, all of it is injected.
public struct CommandContext: Sendable {
    public var stdout: any TextOutput
    public var stderr: any TextOutput
    public var environment: [String: String]
    /// The terminal's width in columns when stdout is a terminal (TIOCGWINSZ), else nil.
    public var terminalColumns: Int?

    public init(stdout: any TextOutput, stderr: any TextOutput, environment: [String: String] = [:], terminalColumns: Int? = nil) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.terminalColumns = terminalColumns
    }
}

extension TextOutput {
    func line(_ text: String = "") { write(text + "\n") }
}

/// An output that passes every write through `Sanitizer.terminalSafe`: what commands print reaches the terminal
/// without controls, whichever input it quotes. Commands that print escape sequences on purpose (a style's ANSI
/// output, progress lines) or exact bytes (an exported bundle) write to `unfiltered`.
final class TerminalSafeOutput: TextOutput {
    let base: any TextOutput

    init(_ base: any TextOutput) { self.base = base }

    func write(_ text: String) { base.write(Sanitizer.terminalSafe(text)) }
    var isTerminal: Bool { base.isTerminal }
}

extension TextOutput {
    /// The output beneath a `TerminalSafeOutput`: for text that must reach it unchanged.
    var unfiltered: any TextOutput { (self as? TerminalSafeOutput)?.base ?? self }

    /// A JSON document, pretty-printed, with a final newline; characters a terminal would interpret are
    /// written as `\uXXXX` escapes, so the value read back is unchanged.
    func json(_ document: JSONValue) { write(JSONText.escapingTerminalControls(document.serialized(pretty: true)) + "\n") }
}

extension CommandContext {
    /// This context with stdout and stderr behind `TerminalSafeOutput`.
    var terminalSafe: CommandContext {
        var context = self
        if !(stdout is TerminalSafeOutput) { context.stdout = TerminalSafeOutput(stdout) }
        if !(stderr is TerminalSafeOutput) { context.stderr = TerminalSafeOutput(stderr) }
        return context
    }
}
