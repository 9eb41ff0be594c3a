/// Operations on JSON text.
public enum JSONText {
    /// `json` with every DEL, C1 control (U+0080–U+009F) and bidi embedding, override or isolate control
    /// (U+202A–U+202E, U+2066–U+2069) written as a `\uXXXX` escape. These characters can only stand inside
    /// JSON strings, so the text reads back as the same value; a terminal shown the text has nothing left to
    /// interpret (serializers already escape C0 controls). Returns `json` itself when nothing changes.
    public static func escapingTerminalControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isTerminalControl) else { return json }
        var result = String.UnicodeScalarView()
        let digits = Array("0123456789abcdef".unicodeScalars)
        for scalar in json.unicodeScalars {
            guard isTerminalControl(scalar) else {
                result.append(scalar)
                continue
            }
            result.append("\\")
            result.append("u")
            for shift: UInt32 in [12, 8, 4, 0] { result.append(digits[Int((scalar.value >> shift) & 0xF)]) }
        }
        return String(result)
    }

    /// DEL, a C1 control, or a bidi embedding, override or isolate control.
    static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
