/// Where text without spaces may break: a small subset of UAX #14 for East Asian text.
///
/// A break is allowed between two clusters when either is two columns wide (CJK ideographs, kana, Hangul, fullwidth
/// forms, emoji), or after a zero-width space — unless the second is closing punctuation, a small kana or a
/// prolonged sound mark, which must not start a line, or the first is opening punctuation, which must not end one
/// (kinsoku shori, the common core of JIS X 4051's rules).
enum LineBreaking {
    /// Whether a line may break between two adjacent clusters that have no space between them: one whose first
    /// scalar is `previous` and `previousColumns` wide, then one whose first scalar is `next`, `nextColumns` wide.
    @inline(__always)
    static func allowsBreak(afterBase previous: UInt32, columns previousColumns: Int, beforeBase next: UInt32, columns nextColumns: Int) -> Bool {
        guard nextColumns > 0 else { return false }
        if previous == 0x200B { return true }
        guard previousColumns == 2 || nextColumns == 2 else { return false }
        return !forbidsLineStart(next) && !forbidsLineEnd(previous)
    }

    /// Closing punctuation and marks that should not begin a line.
    static func forbidsLineStart(_ base: UInt32) -> Bool {
        switch base {
        case 0x21, 0x25, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: // ! % ) , . : ; ? ] }
            return true
        case 0x2019, 0x201D, 0x2026, 0x2025, 0x203C, 0x2047...0x2049: // ’ ” … ‥ ‼ ⁇ ⁈ ⁉
            return true
        case 0x3001, 0x3002, 0x3005, 0x303B, // 、 。 々 〻
             0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F, // 〉》」』】〕〗〙〛〞〟
             0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096, // small hiragana
             0x309D, 0x309E, 0x30A0, // ゝ ゞ ゠
             0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6, // small katakana
             0x30FB, 0x30FC, 0x30FD, 0x30FE, // ・ ー ヽ ヾ
             0x31F0...0x31FF, // small katakana extensions
             0xFF01, 0xFF05, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0xFF60, // fullwidth ！％），．：；？］｝｠
             0xFF61, 0xFF63, 0xFF64, 0xFF65, 0xFF70, 0xFF9E, 0xFF9F: // halfwidth ｡ ｣ ､ ･ ｰ ﾞ ﾟ
            return true
        default:
            return false
        }
    }

    /// Opening punctuation that should not end a line.
    static func forbidsLineEnd(_ base: UInt32) -> Bool {
        switch base {
        case 0x28, 0x5B, 0x7B, 0x2018, 0x201C: // ( [ { ‘ “
            return true
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D, // 〈《「『【〔〖〘〚〝
             0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62: // fullwidth （［｛｟, halfwidth ｢
            return true
        default:
            return false
        }
    }
}
