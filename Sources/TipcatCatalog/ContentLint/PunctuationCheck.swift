/// `punctuation`: endings a text must not have (`"."` on a title) and characters it must not contain (`"!"`).
///
/// A variant that ends with a placeholder has no ending of its own and is not checked for one. Matching is
/// by UTF-8 bytes (punctuation has one spelling), on the text's own storage, without allocating.
struct PunctuationCheck: ContentCheck {
    let forbidEnding: [String]
    let forbid: [String]
    private let forbidBytes: [[UInt8]]
    private let endingBytes: [[UInt8]]

    init(forbidEnding: [String], forbid: [String]) {
        self.forbidEnding = forbidEnding
        self.forbid = forbid
        forbidBytes = forbid.map { Array($0.utf8) }
        endingBytes = forbidEnding.map { Array($0.utf8) }
    }

    var readsWords: Bool { false }

    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void) {
        for variant in text.variants {
            if !forbid.isEmpty {
                for segment in variant {
                    guard case .text(let string) = segment else { continue }
                    for (index, needle) in forbidBytes.enumerated() where Self.contains(string, needle) {
                        report(ContentFinding(defaultMessage: "\(text.description) contains '\(forbid[index])'",
                                              values: ["match": forbid[index]], anchor: .text(forbid[index])))
                    }
                }
            }
            guard !forbidEnding.isEmpty, let ending = Self.ending(of: variant) else { continue }
            for (index, bytes) in endingBytes.enumerated() where Self.hasSuffix(ending, bytes) {
                let forbidden = forbidEnding[index]
                report(ContentFinding(defaultMessage: "\(text.description) ends with '\(forbidden)'", values: ["match": forbidden],
                                      anchor: .ending(forbidden)))
            }
        }
    }

    /// The last text of a variant without trailing whitespace; nil when the variant ends with a placeholder.
    private static func ending(of variant: [LintText.Segment]) -> Substring? {
        for segment in variant.reversed() {
            guard case .text(let string) = segment else { return nil }
            if let last = string.lastIndex(where: { !$0.isWhitespace }) { return string[...last] }
        }
        return nil
    }

    /// Whether the UTF-8 bytes of `text` end with `suffix`.
    private static func hasSuffix(_ text: Substring, _ suffix: [UInt8]) -> Bool {
        let utf8 = text.utf8
        guard !suffix.isEmpty, utf8.count >= suffix.count else { return false }
        var index = utf8.endIndex
        for byte in suffix.reversed() {
            index = utf8.index(before: index)
            if utf8[index] != byte { return false }
        }
        return true
    }

    /// Whether the UTF-8 bytes of `string` contain `needle`.
    private static func contains(_ string: String, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return false }
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count >= needle.count else { return false }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == first {
                    var offset = 1
                    while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                }
                index += 1
            }
            return false
        }
        if let found = string.utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(string.utf8).withUnsafeBufferPointer(search)
    }
}
