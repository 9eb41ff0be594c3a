/// A CLDR plural category. Ordered as CLDR lists them: zero < one < two < few < many < other.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    case zero
    case one
    case two
    case few
    case many
    case other

    private var rank: Int {
        switch self {
        case .zero: 0
        case .one: 1
        case .two: 2
        case .few: 3
        case .many: 4
        case .other: 5
        }
    }

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool { lhs.rank < rhs.rank }
}
