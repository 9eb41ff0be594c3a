#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TipcatCatalog
public import TipcatCore
public import TipcatEngine

/// The events log: `TipEvent`s as JSON Lines in a file an app ships to its analytics (`tipcat engine` keeps it
/// beside the state database, `<state>.events.jsonl`).
///
/// Appending is one `write` of whole lines under an exclusive `flock` of the file. The log is bounded: when an
/// append would make it larger than `limits.maxBytes`, or its oldest line is older than `limits.maxAge`, the
/// log is trimmed — lines older than `maxAge` and lines whose time cannot be read are dropped, then the oldest
/// lines until it holds at most three quarters of `maxBytes` — into a temporary file renamed over the log, so a
/// reader sees the whole old log or the whole new one. A writer that waited for the lock while another trimmed
/// notices that the path names a new file and appends to that one.
public struct TipEventLog: Sendable {
    /// How large and how old the log may grow.
    public struct Limits: Sendable, Hashable {
        /// The most bytes the log holds after an append (default 1 MiB).
        public var maxBytes: Int
        /// The oldest event the log keeps (default 30 days).
        public var maxAge: TimeSpan

        /// Creates limits.
        public init(maxBytes: Int = 1_048_576, maxAge: TimeSpan = TimeSpan(seconds: 30 * 86_400)) {
            self.maxBytes = maxBytes
            self.maxAge = maxAge
        }

        /// The smallest `maxBytes` accepted: room for a few events.
        public static let smallestMaxBytes = 1_024
    }

    /// A line of the log that is not an event.
    public struct LineProblem: Sendable, Hashable, CustomStringConvertible {
        /// 1-based.
        public var line: Int
        public var message: String

        public var description: String { "line \(line): \(message)" }
    }

    public var path: String
    public var limits: Limits

    /// Creates a log at `path` (created at the first append).
    public init(path: String, limits: Limits = Limits()) {
        self.path = path
        self.limits = limits
    }

    /// The log beside a state database: `<state>.events.jsonl`.
    public static func path(forState state: String) -> String { state + ".events.jsonl" }

    // MARK: Writing

    /// Appends the events as lines, trimming the log to its limits (measured from `now`) when needed.
    public func append(_ events: [TipEvent], now: Timestamp) throws(TipEventLogError) {
        guard !events.isEmpty else { return }
        var lines = events.map { Array(($0.jsonLine + "\n").utf8) }
        // A batch larger than the whole log keeps its newest lines.
        var total = lines.reduce(0) { $0 + $1.count }
        while total > limits.maxBytes, let first = lines.first {
            total -= first.count
            lines.removeFirst()
        }
        guard !lines.isEmpty else { return }
        let file = try lockedFile()
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { throw error("cannot read the size of") }
        let size = Int(info.st_size)
        var bytes = lines.flatMap { $0 }
        if size > 0 {
            var last: UInt8 = 0
            if pread(file, &last, 1, off_t(size - 1)) == 1, last != UInt8(ascii: "\n") { bytes.insert(UInt8(ascii: "\n"), at: 0) }
        }
        let cutoff = (now - limits.maxAge).secondsSince1970
        if size + bytes.count > limits.maxBytes || (size > 0 && !oldestLineIsFresh(file, cutoff: cutoff)) {
            try trim(file, size: size, adding: bytes, cutoff: cutoff)
        } else {
            try writeAll(file, bytes)
        }
    }

    /// Opens the log for appending with an exclusive lock, making sure the descriptor is the file the path names
    /// now (another process may have trimmed and replaced it while this one waited).
    private func lockedFile() throws(TipEventLogError) -> Int32 {
        for _ in 0..<20 {
            let file = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard file >= 0 else { throw error("cannot open") }
            guard flock(file, LOCK_EX) == 0 else {
                close(file)
                throw error("cannot lock")
            }
            var opened = stat()
            var named = stat()
            if fstat(file, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                return file
            }
            close(file)
        }
        throw TipEventLogError(path: path, reason: "the file kept being replaced while waiting for its lock")
    }

    /// Whether the first line's time is at or after `cutoff` (a line whose time cannot be read is not).
    private func oldestLineIsFresh(_ file: Int32, cutoff: Double) -> Bool {
        var prefix = [UInt8](repeating: 0, count: 64)
        let count = prefix.withUnsafeMutableBytes { pread(file, $0.baseAddress, 64, 0) }
        guard count > 0 else { return true }
        guard let time = TipEventLog.leadingTime(prefix[..<count]) else { return false }
        return time.secondsSince1970 >= cutoff
    }

    /// The time of a line as this log writes it (`{"time":"…"`), read without parsing the whole line.
    static func leadingTime(_ line: ArraySlice<UInt8>) -> Timestamp? {
        let opening = Array("{\"time\":\"".utf8)
        guard line.count > opening.count, line.prefix(opening.count).elementsEqual(opening) else { return nil }
        let rest = line.dropFirst(opening.count)
        guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return Timestamp(iso8601: String(decoding: rest[..<quote], as: UTF8.self))
    }

    /// Rewrites the log as its fresh lines plus `adding`, within three quarters of `maxBytes`, and renames the
    /// result over the log (the lock on the old file is held throughout).
    private func trim(_ file: Int32, size: Int, adding: [UInt8], cutoff: Double) throws(TipEventLogError) {
        var existing = [UInt8](repeating: 0, count: size)
        var read = 0
        while read < size {
            let count = existing[read...].withUnsafeMutableBytes { pread(file, $0.baseAddress, size - read, off_t(read)) }
            guard count > 0 else { break }
            read += count
        }
        existing.removeLast(size - read)
        var kept: [ArraySlice<UInt8>] = []
        for line in (existing + adding).split(separator: UInt8(ascii: "\n")) {
            guard let time = TipEventLog.leadingTime(line), time.secondsSince1970 >= cutoff else { continue }
            kept.append(line)
        }
        let budget = max(limits.maxBytes * 3 / 4, adding.count)
        var total = kept.reduce(0) { $0 + $1.count + 1 }
        var first = 0
        while total > budget, first < kept.count {
            total -= kept[first].count + 1
            first += 1
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for line in kept[first...] {
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
        }
        let temporary = path + ".tmp-\(getpid())"
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw error("cannot create a temporary file beside") }
        do throws(TipEventLogError) {
            try writeAll(output, bytes)
        } catch {
            close(output)
            unlink(temporary)
            throw error
        }
        close(output)
        guard rename(temporary, path) == 0 else {
            let failure = self.error("cannot replace")
            unlink(temporary)
            throw failure
        }
    }

    private func writeAll(_ file: Int32, _ bytes: [UInt8]) throws(TipEventLogError) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(file, $0.baseAddress, bytes.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw error("cannot write") }
            written += count
        }
    }

    private func error(_ what: String) -> TipEventLogError {
        TipEventLogError(path: path, reason: "\(what) the events log: \(String(cString: strerror(errno)))")
    }

    // MARK: Reading

    /// Every event in the log, oldest first, and the lines that are not events (they are skipped). A missing
    /// log has no events.
    public func read() throws(TipEventLogError) -> (events: [TipEvent], problems: [LineProblem]) {
        guard FileManager.default.fileExists(atPath: path) else { return ([], []) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TipEventLogError(path: path, reason: "cannot read the events log")
        }
        var events: [TipEvent] = []
        var problems: [LineProblem] = []
        let bytes = [UInt8](data)
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) { continue }
            switch TipEventLog.event(fromLine: line) {
            case .success(let event): events.append(event)
            case .failure(let problem): problems.append(LineProblem(line: number + 1, message: problem.reason))
            }
        }
        return (events, problems)
    }

    /// One line of the log as an event, or why it is not one.
    public static func event(fromLine line: ArraySlice<UInt8>) -> Result<TipEvent, TipEventLogError> {
        func problem(_ reason: String) -> Result<TipEvent, TipEventLogError> { .failure(TipEventLogError(path: "", reason: reason)) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            return problem("not a JSON object")
        }
        guard let timeText = object["time"] as? String, let time = Timestamp(iso8601: timeText) else {
            return problem("'time' is missing or not an ISO 8601 time")
        }
        guard let kindName = object["kind"] as? String else { return problem("'kind' is missing or not a string") }
        guard let tipText = object["tip"] as? String, !tipText.isEmpty else { return problem("'tip' is missing or not a string") }
        let instance = (object["instance"] as? String).map { TipInstanceID($0) } ?? TipInstanceID(tipText)
        guard let details = object["details"] as? [String: Any] else { return problem("'details' is missing or not an object") }
        let kind: TipEvent.Kind
        switch kindName {
        case "shown":
            guard let count = (details["displayCount"] as? NSNumber)?.intValue, count >= 0 else {
                return problem("a 'shown' event needs details.displayCount, a count")
            }
            kind = .shown(displayCount: count)
        case "closed":
            guard let seconds = (details["duration"] as? NSNumber)?.doubleValue, seconds >= 0, seconds.isFinite else {
                return problem("a 'closed' event needs details.duration, seconds")
            }
            kind = .closed(duration: TimeSpan(seconds: seconds))
        case "actionPerformed":
            guard let action = details["action"] as? String else { return problem("an 'actionPerformed' event needs details.action") }
            kind = .actionPerformed(action: action)
        case "invalidated":
            guard let text = details["reason"] as? String, let reason = TipInvalidationReason(rawValue: text) else {
                return problem("an 'invalidated' event needs details.reason: "
                               + TipInvalidationReason.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .invalidated(reason)
        case "suppressed":
            guard let text = details["reason"] as? String, let reason = TipSuppressionReason(rawValue: text) else {
                return problem("a 'suppressed' event needs details.reason: "
                               + TipSuppressionReason.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .suppressed(reason)
        default:
            return problem("unknown kind '\(kindName)'; expected " + TipEvent.kindNames.joined(separator: ", "))
        }
        return .success(TipEvent(time: time, kind: kind, tip: TipID(tipText), instance: instance))
    }
}

/// The events log could not be read or written.
public struct TipEventLogError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
