import CByteScan
public import TipcatCore

/// Parsing a document whose largest part is one object of independent values (a String Catalog's `strings`),
/// so that each value's tree is built only while it is used and can be dropped right after.
///
/// A first pass parses the document as usual except for that object's array and object values: it finds where
/// each one ends by bracket counting (strings skipped) and leaves a `null` placeholder at the value's offset.
/// `parseDeferred` later parses one such value with the ordinary parser, over exactly its bytes. The document is
/// valid JSON exactly when the first pass and every deferred value parse: the first pass checks everything
/// between the values, and bracket counting finds a valid value's true end. A caller that meets a deferred value
/// that does not parse parses the whole file as usual for the precise error.
extension JSONDocument {
    /// Where the deferred values are: each value's first byte → the offset just past its last byte.
    struct Deferred: Sendable {
        let ends: [Int: Int]
        /// The nesting a deferred value may have (the document's limit less the two levels above it).
        let maxDepth: Int
    }

    /// Parses `source` like `parse(_:maxDepth:)`, except that the array and object values of the first member
    /// named `key` of the root object (when that member's value is an object) are left for `parseDeferred`:
    /// each is a `null` placeholder at the value's offset. The duplicate keys inside them are not in
    /// `duplicateKeys()`; `parseDeferred` finds each value's own.
    ///
    /// Documents that do not have that shape are parsed as `parse(_:maxDepth:)` does. Throws what `parse` throws
    /// for an invalid document, except that a syntax error inside a deferred value is only found by
    /// `parseDeferred`.
    public static func parse(_ source: SourceFile, maxDepth: Int = 512, deferringMembersOf key: String) throws(JSONSyntaxError) -> JSONDocument {
        let depth = Swift.min(Swift.max(1, maxDepth), depthLimit)
        guard depth >= 3 else { return try parse(source, maxDepth: maxDepth) }
        let result: (JSONNode, [(first: JSONMember, duplicate: JSONMember)], [Int: Int])? = source.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            // The root object is not on the parser's stack of open containers: one level less below it.
            var parser = JSONParser(base: base, count: buffer.count, maxDepth: depth - 1, stackCapacity: 64)
            guard let (root, ends) = try? parser.parseDeferringMembers(of: key) else { return nil }
            return (root, parser.duplicates.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }, ends)
        }
        // Not an object at the root, or a syntax error: the ordinary parse tells which, exactly.
        guard let (root, duplicates, ends) = result else { return try parse(source, maxDepth: maxDepth) }
        return JSONDocument(source: source, root: root, duplicates: duplicates, deferred: Deferred(ends: ends, maxDepth: depth - 2))
    }

    /// Whether `node` is the placeholder of a value `parseDeferred` reads.
    public func isDeferred(_ node: JSONNode) -> Bool {
        guard case .null = node.value, let deferred else { return false }
        return deferred.ends[node.offset] != nil
    }

    /// The deferred value whose placeholder is `node`, as a document of its own: the same source (offsets and
    /// locations are the file's), the value as root, and the duplicate keys inside it. Nil when `node` is not a
    /// placeholder. Throws when the value is not valid JSON (the error is not necessarily the one a parse of the
    /// whole file reports: parse the file for that).
    public func parseDeferred(_ node: JSONNode) throws(JSONSyntaxError) -> JSONDocument? {
        guard case .null = node.value, let deferred, let end = deferred.ends[node.offset] else { return nil }
        let result: Result<(JSONNode, [(first: JSONMember, duplicate: JSONMember)]), JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, end <= buffer.count, node.offset < end else {
                return .failure(JSONSyntaxError("deferred value outside the file", at: node.offset))
            }
            var parser = JSONParser(base: base, count: end, maxDepth: deferred.maxDepth, stackCapacity: 16)
            parser.position = node.offset
            parser.context = .afterColon
            do throws(JSONSyntaxError) {
                let root = try parser.parseValueTree()
                guard parser.position == end else { return .failure(JSONSyntaxError("deferred value ends early", at: parser.position)) }
                return .success((root, parser.duplicates.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }))
            } catch {
                return .failure(error)
            }
        }
        let (root, duplicates) = try result.get()
        return JSONDocument(source: source, root: root, duplicates: duplicates)
    }

    /// Where the deferred value whose placeholder is `node` ends (the offset just past its last byte); nil when
    /// `node` is not a placeholder.
    public func deferredEnd(of node: JSONNode) -> Int? {
        guard case .null = node.value, let deferred else { return nil }
        return deferred.ends[node.offset]
    }

    /// Parses the one value that starts at `offset` in `source` and ends exactly at its end: a value cut from a
    /// larger file (see `SourceFile(path:bytes:firstLine:firstColumn:)`), such as a deferred value whose bytes
    /// were kept. The result's root is that value; its duplicate keys are its own.
    public static func parse(_ source: SourceFile, valueAt offset: Int, maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONDocument {
        let depth = Swift.min(Swift.max(1, maxDepth), depthLimit)
        let result: Result<(JSONNode, [(first: JSONMember, duplicate: JSONMember)]), JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, offset >= 0, offset < buffer.count else {
                return .failure(JSONSyntaxError("no value at byte \(offset)", at: max(0, offset)))
            }
            var parser = JSONParser(base: base, count: buffer.count, maxDepth: depth, stackCapacity: 16)
            parser.position = offset
            parser.context = .afterColon
            do throws(JSONSyntaxError) {
                let root = try parser.parseValueTree()
                guard parser.position == buffer.count else { return .failure(JSONSyntaxError("the value ends early", at: parser.position)) }
                return .success((root, parser.duplicates.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }))
            } catch {
                return .failure(error)
            }
        }
        let (root, duplicates) = try result.get()
        return JSONDocument(source: source, root: root, duplicates: duplicates)
    }
}

extension JSONParser {
    /// The first pass of `JSONDocument.parse(_:maxDepth:deferringMembersOf:)`: the root object, with the
    /// container values of its first `key` member (an object) skipped. Throws on anything else, including a
    /// root that is not an object (the caller then parses as usual).
    mutating func parseDeferringMembers(of deferredKey: String) throws(JSONSyntaxError) -> (JSONNode, [Int: Int]) {
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: "{") else { throw JSONSyntaxError("not an object", at: position) }
        let rootOffset = position
        position += 1
        var members: [JSONMember] = []
        var ends: [Int: Int] = [:]
        var deferredOne = false
        skipWhitespace()
        if position < end, base[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            var afterComma = false
            while true {
                var key = ""
                var keyOffset = -1
                try parseKey(&key, &keyOffset, afterComma: afterComma)
                skipWhitespace()
                let value: JSONNode
                if !deferredOne, key == deferredKey, position < end, base[position] == UInt8(ascii: "{") {
                    deferredOne = true
                    value = try parseObjectDeferringValues(into: &ends)
                } else {
                    context = .afterColon
                    value = try parseValueTree()
                }
                members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
                if try closesObject(afterComma: &afterComma) { break }
            }
        }
        skipWhitespace()
        guard position == end else { throw JSONSyntaxError("unexpected data after the JSON value", at: position) }
        let root = JSONObject(members)
        if root.members.count > 1 { duplicates += root.duplicateKeys() }
        return (JSONNode(.object(root), offset: rootOffset), ends)
    }

    /// After an object member: reads `,` (false; the next key follows) or `}` (true).
    private mutating func closesObject(afterComma: inout Bool) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard position < end else { throw JSONSyntaxError("unfinished object", at: position) }
        switch base[position] {
        case UInt8(ascii: ","):
            lastComma = position
            position += 1
            afterComma = true
            return false
        case UInt8(ascii: "}"):
            position += 1
            return true
        default:
            throw JSONSyntaxError("expected ',' or '}' after object member", at: position)
        }
    }

    /// The object at `position` (a level below the root), its array and object values skipped: each one's
    /// offset → its end in `ends`, a `null` placeholder in the tree.
    private mutating func parseObjectDeferringValues(into ends: inout [Int: Int]) throws(JSONSyntaxError) -> JSONNode {
        guard maxDepth >= 2 else { throw JSONSyntaxError("too deep to defer", at: position) }
        let start = position
        position += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if position < end, base[position] == UInt8(ascii: "}") {
            position += 1
            return JSONNode(.object(JSONObject()), offset: start)
        }
        var afterComma = false
        while true {
            var key = ""
            var keyOffset = -1
            try parseKey(&key, &keyOffset, afterComma: afterComma)
            skipWhitespace()
            guard position < end else { throw JSONSyntaxError("unfinished object", at: position) }
            let valueStart = position
            let value: JSONNode
            if base[position] == UInt8(ascii: "{") || base[position] == UInt8(ascii: "[") {
                position = try endOfContainer(at: position)
                ends[valueStart] = position
                value = JSONNode(.null, offset: valueStart)
            } else {
                context = .afterColon
                value = try parseValueTree()
            }
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            if try closesObject(afterComma: &afterComma) { break }
        }
        let object = JSONObject(members)
        if object.members.count > 1 { duplicates += object.duplicateKeys() }
        return JSONNode(.object(object), offset: start)
    }

    /// Just past the bracket that closes the array or object opening at `offset`, counting brackets outside
    /// strings (nothing else is checked: the deferred parse does that). Sixteen bytes at a time (`CByteScan`).
    private func endOfContainer(at offset: Int) throws(JSONSyntaxError) -> Int {
        let found = tipcat_json_end_of_container(base, Int64(offset), Int64(end))
        switch found {
        case -1: throw JSONSyntaxError("unterminated string", at: offset)
        case ..<0: throw JSONSyntaxError("unfinished container", at: offset)
        default: return Int(found)
        }
    }
}
