/// Word wrapping with the same line-breaking rules as ArgumentParser's help output.
enum TextWrapping {
    /// Wraps `text` so that every line fits in `width` columns including `indent` leading spaces.
    ///
    /// Existing line breaks are kept; a line breaks at the last space that fits, or after an over-long word.
    /// Empty lines get no indentation.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
        let columns = width - indent
        guard columns > 0 else { return text }
        let characters = Array(text)
        var lines: [ArraySlice<Character>] = []
        var start = 0
        while true {
            let chunkEnd = min(start + columns, characters.count)
            let chunk = characters[start..<chunkEnd]
            if let lastBreak = chunk.lastIndex(of: "\n") {
                lines.append(contentsOf: characters[start..<lastBreak].split(separator: "\n", omittingEmptySubsequences: false))
                start = lastBreak + 1
            } else if chunkEnd == characters.count {
                lines.append(characters[start...])
                break
            } else if let lastSpace = chunk.lastIndex(of: " ") {
                lines.append(characters[start..<lastSpace])
                start = lastSpace + 1
            } else if let nextSpace = characters[start...].firstIndex(of: " ") {
                lines.append(characters[start..<nextSpace])
                start = nextSpace + 1
            } else {
                lines.append(characters[start...])
                break
            }
        }
        let padding = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? "" : padding + String($0) }.joined(separator: "\n")
    }
}
