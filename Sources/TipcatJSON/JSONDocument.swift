public import TipcatCore
import Dispatch

/// A parsed JSON file: the tree, plus the source needed to turn any node's offset into `file:line:col`.
///
/// Parsing is strict RFC 8259 with one tolerance: a leading UTF-8 byte order mark (EF BB BF) is skipped
/// (offsets still count it, so locations match the file). Anything else that is not JSON is an error.
///
/// A class: decoders hand a document to every object they read, and one reference is cheaper to pass than
/// the source, tree and duplicate list it holds (its properties never change).
public final class JSONDocument: Sendable {
    public let source: SourceFile
    public let root: JSONNode
    /// Every key written twice in one object, with the member that has it first, in source order of the
    /// duplicates (found while parsing).
    let duplicates: [(first: JSONMember, duplicate: JSONMember)]
    /// The values left unparsed by `parse(_:maxDepth:deferringMembersOf:)` (nil for documents parsed whole).
    let deferred: Deferred?

    init(source: SourceFile, root: JSONNode, duplicates: [(first: JSONMember, duplicate: JSONMember)] = [], deferred: Deferred? = nil) {
        self.source = source
        self.root = root
        self.duplicates = duplicates
        self.deferred = deferred
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
        try parse(source, maxDepth: maxDepth, splitAt: nil).document
    }

    /// `parse`, with the second parser of a two-core parse started at `splitAt` whatever the document's size
    /// (tests prove the result never depends on where that is); nil picks as `parse` does. `split` tells
    /// whether the main parser took the second one's work over.
    static func parse(_ source: SourceFile, maxDepth: Int, splitAt: Int?) throws(JSONSyntaxError) -> (document: JSONDocument, split: Bool) {
        let depth = Swift.min(Swift.max(1, maxDepth), depthLimit)
        let result: Result<(JSONNode, [(first: JSONMember, duplicate: JSONMember)], Bool), JSONSyntaxError> = source.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return .failure(JSONSyntaxError("empty file: expected a JSON value", at: 0))
            }
            var parser = JSONParser(base: base, count: buffer.count, maxDepth: depth, stackCapacity: 64)
            // A large document: a second parser reads its second half meanwhile (see JSONParser+Split).
            let split = splitAt ?? (buffer.count >= JSONParser.splitThreshold && onlineCores > 1
                ? JSONParser.splitCandidate(base, count: buffer.count, from: buffer.count / 2) : nil)
            var second: SuffixResult?
            if let split, split > 0, split < buffer.count {
                let result = SuffixResult()
                let region = UnsafeRegion(base: base, count: buffer.count)
                DispatchQueue.global().async {
                    var parser = JSONParser(base: region.base, count: region.count, maxDepth: depth, stackCapacity: 64)
                    result.set(try? parser.parseSuffix(at: split))
                }
                parser.handoff = JSONParser.Handoff(offset: split, result: { result.wait() })
                second = result
            }
            // The second parser reads the buffer: it must be done before the buffer goes.
            defer { _ = second?.wait() }
            do throws(JSONSyntaxError) {
                let root = try parser.parseDocument()
                return .success((root, parser.duplicates.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }, parser.tookOver))
            } catch {
                return .failure(error)
            }
        }
        let (root, duplicates, split) = try result.get()
        return (JSONDocument(source: source, root: root, duplicates: duplicates), split)
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

/// The bytes being parsed, shared with the second parser's thread (which ends before they are released).
private struct UnsafeRegion: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let count: Int
}
