import Dispatch
import Synchronization

/// Parsing a large document on two cores, speculatively and exactly.
///
/// A second parser starts at a guessed offset S — the opening quote of what looks like an object key after
/// `},` in the second half of the file — and parses to the end of the document without knowing what encloses
/// S: the values of S's object after S, then, each time a container it did not open closes, what follows it
/// in the enclosing container (whose kind it learns from the syntax). Meanwhile the main parser reads the
/// file from the start as usual. If it reaches S exactly where a key of an object starts, and the second
/// parser succeeded with as many enclosing levels as the main parser has open and of the same kinds (and
/// within the depth limit), the main parser takes the second parser's values over and closes its open
/// containers with them: the tree, offsets and duplicate keys are exactly those of a sequential parse. In
/// every other case (S inside a string, a syntax error after S, a mismatch) the main parser just goes on
/// alone, so results and error messages never depend on the guess.
extension JSONParser {
    /// What a parser that starts at S (`parseSuffix`) found.
    struct Suffix: Sendable {
        /// The containers it closed without having opened them, innermost (S's object) first: their values
        /// after S (for S's object) or after the closed child (for the enclosing ones).
        var levels: [Level]
        /// Duplicate keys of the objects it opened and closed.
        var duplicates: [(first: JSONMember, duplicate: JSONMember)]
        /// The deepest nesting it opened, counted from S's object (a container inside it is 1).
        var deepest: Int
        /// Where it stopped: the end of the document.
        var end: Int
    }

    struct Level: Sendable {
        enum Kind: Sendable { case object, array, unknown }
        var kind: Kind
        var members: [JSONMember] = []
        var elements: [JSONNode] = []
    }

    /// The state of a parser started at S (nil in the main parser).
    struct SuffixState {
        var levels = [Level(kind: .object)]
        var deepest = 0
    }

    /// What the main parser needs to take a second parser's work over at `offset`.
    struct Handoff {
        let offset: Int
        /// Waits for the second parser and returns its result (nil when it failed).
        let result: () -> Suffix?
    }

    enum SuffixAction {
        /// Parse the next value (a key, if any, has been read).
        case nextValue
        /// This value (a string read while telling an object from an array) belongs to the current level.
        case value(JSONNode)
        /// The document ended after the outermost container closed.
        case finished
    }

    /// Documents at least this large are parsed on two cores.
    static let splitThreshold = 4 << 20

    /// The opening quote of the first `}` `,` `"` sequence (whitespace allowed between) at or after `from`, looking
    /// no further than `limit` bytes; nil when there is none.
    static func splitCandidate(_ base: UnsafePointer<UInt8>, count: Int, from: Int, limit: Int = 1 << 20) -> Int? {
        var index = max(0, from)
        let stop = min(count, index + limit)
        while index < stop {
            if base[index] == UInt8(ascii: "}") {
                var next = index + 1
                while next < count, isWhitespace(base[next]) { next += 1 }
                if next < count, base[next] == UInt8(ascii: ",") {
                    next += 1
                    while next < count, isWhitespace(base[next]) { next += 1 }
                    if next < count, base[next] == UInt8(ascii: "\""), looksLikeKey(base, count: count, at: next) { return next }
                }
            }
            index += 1
        }
        return nil
    }

    /// Whether a string that could be an object key starts at `offset`: a short string without control
    /// characters, followed by `:`.
    static func looksLikeKey(_ base: UnsafePointer<UInt8>, count: Int, at offset: Int) -> Bool {
        var index = offset + 1
        let stop = min(count, index + 4096)
        while index < stop {
            let byte = base[index]
            if byte < 0x20 { return false }
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\"") {
                index += 1
                while index < count, isWhitespace(base[index]) { index += 1 }
                return index < count && base[index] == UInt8(ascii: ":")
            }
            index += 1
        }
        return false
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Parses from `offset` (the opening quote of a key in an object) to the end of the document.
    mutating func parseSuffix(at offset: Int) throws(JSONSyntaxError) -> Suffix {
        position = offset
        suffix = SuffixState()
        var key = ""
        var keyOffset = -1
        try parseKey(&key, &keyOffset, afterComma: false)
        context = .afterColon
        _ = try parseValueTree(key: key, keyOffset: keyOffset)
        guard let state = suffix, state.levels.allSatisfy({ $0.kind != .unknown }) else {
            throw JSONSyntaxError("unfinished document", at: position)
        }
        return Suffix(levels: state.levels, duplicates: duplicates, deepest: state.deepest, end: position)
    }

    /// In a parser started at S, a value completed outside every container it opened: adds it to the current
    /// enclosing level and reads what follows (`,` and the next key, or the level's closing bracket).
    mutating func suffixStep(_ node: JSONNode, key: inout String, keyOffset: inout Int) throws(JSONSyntaxError) -> SuffixAction {
        guard var state = suffix else { throw JSONSyntaxError("unexpected data after the JSON value", at: position) }
        // Taken out while it grows (a copy left behind would make every append copy the level).
        suffix = nil
        defer { suffix = state }
        var index = state.levels.count - 1
        if state.levels[index].kind == .object {
            state.levels[index].members.append(JSONMember(key: key, keyOffset: keyOffset, value: node))
        } else {
            state.levels[index].elements.append(node)
        }
        while true {
            skipWhitespace()
            guard position < end else { throw found("expected ',' or a closing bracket", at: position) }
            let byte = base[position]
            if byte == UInt8(ascii: ",") {
                lastComma = position
                position += 1
                switch state.levels[index].kind {
                case .object:
                    try parseKey(&key, &keyOffset, afterComma: true)
                    context = .afterColon
                    return .nextValue
                case .array:
                    context = .afterComma
                    return .nextValue
                case .unknown:
                    // The first value after the closed child tells: a string followed by ':' is a key.
                    skipWhitespace()
                    if position < end, base[position] == UInt8(ascii: "\"") {
                        let start = position
                        let text = try parseString()
                        skipWhitespace()
                        if position < end, base[position] == UInt8(ascii: ":") {
                            position += 1
                            state.levels[index].kind = .object
                            key = text
                            keyOffset = start
                            context = .afterColon
                            return .nextValue
                        }
                        state.levels[index].kind = .array
                        return .value(JSONNode(.string(text), offset: start))
                    }
                    state.levels[index].kind = .array
                    context = .afterComma
                    return .nextValue
                }
            }
            guard byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") else {
                throw found("expected ',' or a closing bracket", at: position)
            }
            let closes: Level.Kind = byte == UInt8(ascii: "}") ? .object : .array
            guard state.levels[index].kind == .unknown || state.levels[index].kind == closes else {
                throw found("mismatched closing bracket", at: position)
            }
            state.levels[index].kind = closes
            position += 1
            skipWhitespace()
            if position == end { return .finished }
            // Now in the container that held the closed one.
            state.levels.append(Level(kind: .unknown))
            index += 1
        }
    }

    /// In the main parser, at a key after `,` in an object: when this is S, takes the second parser's values
    /// over, closes every open container with them and returns the root; nil to go on alone.
    mutating func takeOver() -> JSONNode? {
        guard let handoff else { return nil }
        skipWhitespace()
        guard position >= handoff.offset else { return nil }
        self.handoff = nil
        guard position == handoff.offset, let suffix = handoff.result(), suffix.levels.count == frames.count,
              frames.count + suffix.deepest <= maxDepth
        else { return nil }
        for (level, frame) in zip(suffix.levels, frames.reversed()) where frame.isObject != (level.kind == .object) {
            return nil
        }
        var child: (key: String, keyOffset: Int, node: JSONNode)?
        for level in suffix.levels {
            guard let frame = frames.popLast() else { return nil }
            if let child {
                if frame.isObject {
                    members.append(JSONMember(key: child.key, keyOffset: child.keyOffset, value: child.node))
                } else {
                    elements.append(child.node)
                }
            }
            let node: JSONNode
            if frame.isObject {
                for member in level.members { members.append(member) }
                let object = JSONObject(members.popArray(from: frame.start))
                if object.members.count > 1 { duplicates += object.duplicateKeys() }
                node = JSONNode(.object(object), offset: frame.offset)
            } else {
                for element in level.elements { elements.append(element) }
                node = JSONNode(.array(elements.popArray(from: frame.start)), offset: frame.offset)
            }
            child = (frame.key, frame.keyOffset, node)
        }
        duplicates += suffix.duplicates
        position = suffix.end
        tookOver = true
        return child?.node
    }
}

/// The second parser's result, handed from its thread to the main parser.
final class SuffixResult: Sendable {
    private let value = Mutex<JSONParser.Suffix??>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ suffix: JSONParser.Suffix?) {
        value.withLock { $0 = .some(suffix) }
        done.signal()
    }

    /// Waits until `set` was called (once per result; later calls return at once).
    func wait() -> JSONParser.Suffix? {
        if let ready = value.withLock({ $0 }) { return ready }
        done.wait()
        return value.withLock { $0 } ?? nil
    }
}
