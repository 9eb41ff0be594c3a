public import TipcatCore

/// A parsed JSON file: the tree, plus the source needed to turn any node's offset into `file:line:col`.
///
/// Parsing is strict RFC 8259 with one tolerance: a leading UTF-8 byte order mark (EF BB BF) is skipped
/// (offsets still count it, so locations match the file). Anything else that is not JSON is an error.
public struct JSONDocument: Sendable {
    public let source: SourceFile
    public let root: JSONNode
    /// Every key written twice in one object, with the member that has it first, in source order of the
    /// duplicates (found while parsing).
    let duplicates: [(first: JSONMember, duplicate: JSONMember)]

    init(source: SourceFile, root: JSONNode, duplicates: [(first: JSONMember, duplicate: JSONMember)] = []) {
        self.source = source
        self.root = root
        self.duplicates = duplicates
    }

    /// The largest `maxDepth` accepted; larger requests are clamped to it. Parsing, comparing, hashing and
    /// writing never recurse, but Swift frees a tree recursively (a few hundred bytes of stack per level),
    /// so this bound keeps dropping any parsed tree well inside a thread's stack.
    public static let depthLimit = 10_000

    /// Parses `source` as one JSON value.
    ///
    /// - Parameter maxDepth: the deepest nesting of arrays and objects accepted (the root container is
    ///   level 1); deeper input fails with `nesting deeper than N levels`. Clamped to `1...depthLimit`.
    /// - Throws: `JSONSyntaxError` with a precise message and the offset of the offending byte.
    public static func parse(_ source: SourceFile, maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONDocument {
        let depth = Swift.min(Swift.max(1, maxDepth), depthLimit)
        let result: Result<(JSONNode, [(first: JSONMember, duplicate: JSONMember)]), JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return .failure(JSONSyntaxError("empty file: expected a JSON value", at: 0))
            }
            var parser = JSONParser(base: base, count: buffer.count, maxDepth: depth, stackCapacity: 64)
            do throws(JSONSyntaxError) {
                let root = try parser.parseDocument()
                return .success((root, parser.duplicates.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }))
            } catch {
                return .failure(error)
            }
        }
        let (root, duplicates) = try result.get()
        return JSONDocument(source: source, root: root, duplicates: duplicates)
    }

    /// Parses `text` as if it were the contents of a file at `path` (handy for tests and tools).
    public static func parse(text: String, path: String = "<input>", maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONDocument {
        try parse(SourceFile(path: path, text: text), maxDepth: maxDepth)
    }

    /// Where `node` starts (its first byte; the opening quote for strings). Built nodes (offset -1) map to 1:1.
    public func location(of node: JSONNode) -> SourceLocation {
        source.location(ofByte: node.offset)
    }

    /// The location of the byte at `offset` (clamped to the file).
    public func location(ofByte offset: Int) -> SourceLocation {
        source.location(ofByte: offset)
    }

    /// The location of the key of `member` (its opening quote).
    public func location(ofKey member: JSONMember) -> SourceLocation {
        source.location(ofByte: member.keyOffset)
    }
}
