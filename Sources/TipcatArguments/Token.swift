/// One command-line word, classified the way ArgumentParser splits its input.
enum Token: Hashable {
    /// `--`: everything after it is positional.
    case terminator
    /// A plain value (including `-` alone and negative numbers when no digit short option exists).
    case value(String)
    /// `--name` or `--name=value`.
    case long(name: String, attached: String?)
    /// `-abc` or `-f=value`: one or more short names, with an optional attached value.
    case short(group: [Character], attached: String?)
    /// A word ArgumentParser rejects outright, such as `---x` or `-@`.
    case invalid(String)

    /// Classifies `word`. `digitShortNames` tells whether a dash-prefixed number could be a short option.
    static func classify(_ word: String, digitShortNames: Bool) -> Token {
        let bytes = word.utf8
        let dash = UInt8(ascii: "-")
        var dashes = 0
        for byte in bytes {
            guard byte == dash else { break }
            dashes += 1
        }
        let count = bytes.count
        if dashes == count {
            switch count {
            case 0, 1: return .value(word)
            case 2: return .terminator
            default: return .invalid(word)
            }
        }
        switch dashes {
        case 0:
            return .value(word)
        case 1:
            if !digitShortNames, isNegativeNumber(bytes) { return .value(word) }
            let body = word.dropFirst()
            let name: Substring
            let attached: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                attached = String(body[body.index(after: equals)...])
            } else {
                name = body
                attached = nil
            }
            for character in name where !(character.isLetter || character.isNumber) {
                return .invalid("-\(character)")
            }
            if name.isEmpty { return .invalid(word) }
            return .short(group: Array(name), attached: attached)
        case 2:
            let body = word.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                return .long(name: String(body[..<equals]), attached: String(body[body.index(after: equals)...]))
            }
            return .long(name: String(body), attached: nil)
        default:
            return .invalid(word)
        }
    }

    /// `-` followed by digits, optionally with one `.` and more digits (`-5`, `-0.25`).
    static func isNegativeNumber(_ bytes: String.UTF8View) -> Bool {
        var index = bytes.index(after: bytes.startIndex)
        var digits = 0
        var sawDot = false
        var digitsAfterDot = 0
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if sawDot { digitsAfterDot += 1 } else { digits += 1 }
            } else if byte == UInt8(ascii: "."), !sawDot {
                sawDot = true
            } else {
                return false
            }
            index = bytes.index(after: index)
        }
        return digits > 0 && (!sawDot || digitsAfterDot > 0)
    }

    /// Whether the word can serve as an option's value.
    var isValue: Bool {
        if case .value = self { return true }
        return false
    }
}
