import Testing
import TipcatCore
import TipcatJSON
@testable import TipcatCatalog

/// Scans that skip eight bytes at a time agree with a byte-by-byte reading wherever the byte they look for falls in
/// a word, and near the end of the file.
@Suite struct ByteScanTests {
    /// `isVerbatimString`: true exactly when no backslash comes before the closing quote.
    @Test func verbatimStringsAgreeWithAByteByByteScan() throws {
        for length in 0..<40 {
            for escapeAt in [nil] + Array(0..<length).map(Optional.some) {
                var text = String(repeating: "a", count: length)
                if let escapeAt {
                    let index = text.index(text.startIndex, offsetBy: escapeAt)
                    text.replaceSubrange(index...index, with: "\\n")
                }
                // The string is the last thing in the file, so some scans end within eight bytes of its end.
                let json = "{\"k\":\"" + text + "\"}"
                let document = try JSONDocument.parse(SourceFile(path: "f.json", text: json))
                guard case .object(let object) = document.root.value, let node = object["k"] else {
                    Issue.record("no member in \(json)")
                    continue
                }
                #expect(document.isVerbatimString(node) == (escapeAt == nil), "\(json)")
            }
        }
    }

    /// A printf specifier is found wherever its `%` falls in a word.
    @Test func percentIsFoundAtEveryPosition() {
        for prefix in 0..<24 {
            let text = String(repeating: "é", count: prefix % 3) + String(repeating: "x", count: prefix) + "%@"
            #expect(PrintfFormat.parse(text)?.specifiers.count == 1, "\(text)")
            #expect(PrintfFormat.parse(String(repeating: "y", count: prefix)) == nil)
        }
    }
}
