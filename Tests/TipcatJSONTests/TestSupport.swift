import TipcatCore
import TipcatJSON

/// Parses `bytes` as a file named `t.json`.
func parseBytes(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONSyntaxError) -> JSONDocument {
    try JSONDocument.parse(SourceFile(path: "t.json", bytes: bytes), maxDepth: maxDepth)
}

/// Parses `text` as a file named `t.json`.
func parse(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
    try parseBytes(Array(text.utf8))
}

/// The syntax error for `bytes`, or nil if they parse.
func syntaxError(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONSyntaxError? {
    do {
        _ = try parseBytes(bytes, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

/// The syntax error for `text`, or nil if it parses.
func syntaxError(_ text: String) -> JSONSyntaxError? {
    syntaxError(Array(text.utf8))
}

/// `line:col` of an offset in `text`, for compact expectations.
func lineColumn(_ location: SourceLocation) -> String {
    "\(location.line):\(location.column)"
}
