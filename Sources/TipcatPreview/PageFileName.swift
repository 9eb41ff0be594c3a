/// File names for a preview site's pages, made from tip ids.
///
/// A tip id may hold dots and dashes (`com.example.trails.plan-tomorrow`) and, in a catalog with errors, any
/// character at all. Letters, digits, `-`, `_` and `.` (except a leading dot) are kept; every other byte of the
/// UTF-8 form, and `~` itself, is written `~XX` (two upper-case hex digits), so different ids always give different
/// names, a name never contains `/`, NUL or `..` as a component, and never starts with a dot. An id whose name would
/// be longer than 200 bytes is cut and ends with `~` and a hash of the whole id, to stay under the 255-byte limit.
public enum PageFileName {
    public static let maximumLength = 200

    /// `NewTrailTip` → `NewTrailTip.html`.
    public static func forTip(_ id: String) -> String { encode(id) + ".html" }

    /// The encoded stem (without `.html`).
    public static func encode(_ id: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(id.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in id.utf8 {
            let kept = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || (byte == UInt8(ascii: ".") && !out.isEmpty)
            if kept {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "~"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        if out.isEmpty { return "~" }
        if out.count > maximumLength {
            // FNV-1a over the whole id: the cut names of two long ids still differ.
            var hash: UInt64 = 0xcbf29ce484222325
            for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
            var digits = String(hash, radix: 16)
            while digits.utf8.count < 16 { digits = "0" + digits }
            return String(decoding: out.prefix(maximumLength - 17), as: UTF8.self) + "~" + digits
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// HTML text and attribute escaping for the pages tipcat writes itself (the tip cards come from the style's own
/// escaper): `&`, `<`, `>`, `"` and `'`; attributes are always double-quoted.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    static func append(_ text: String, to out: inout String) {
        let needs = text.utf8.contains { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == 0 }
        guard needs else {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
