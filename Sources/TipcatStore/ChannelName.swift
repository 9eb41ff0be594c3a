/// A channel's name (`production`, `beta`): a letter, then letters, digits, `-`, `_` or `.`, at most 64.
///
/// Names that read as numbers are refused, so `tipcat diff 3 beta` is never ambiguous, and `working` is
/// reserved for the files on disk.
public struct ChannelName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name as written.
    public let rawValue: String

    /// The channel `publish` and `versions` use when none is named.
    public static let production = ChannelName(unchecked: "production")
    /// Names with another meaning wherever a channel is expected.
    public static let reserved: Set<String> = ["working"]

    private init(unchecked name: String) {
        rawValue = name
    }

    /// Checks `name`; throws `StoreError.invalidChannelName` with the reason.
    public init(_ name: String) throws(StoreError) {
        if Int(name) != nil || Double(name) != nil {
            throw StoreError.invalidChannelName(name, reason: "channel names must not be numbers, so they are never mistaken for versions")
        }
        if ChannelName.reserved.contains(name) {
            throw StoreError.invalidChannelName(name, reason: "'\(name)' is reserved for the catalog files on disk")
        }
        guard let first = name.utf8.first, ChannelName.isLetter(first) else {
            throw StoreError.invalidChannelName(name, reason: "a channel name starts with a letter")
        }
        guard name.utf8.count <= 64 else {
            throw StoreError.invalidChannelName(name, reason: "a channel name has at most 64 characters")
        }
        guard name.utf8.allSatisfy({ ChannelName.isLetter($0) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 || $0 == 46 }) else {
            throw StoreError.invalidChannelName(name, reason: "use letters, digits, '-', '_' and '.'")
        }
        rawValue = name
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }

    public var description: String { rawValue }

    public static func < (lhs: ChannelName, rhs: ChannelName) -> Bool { lhs.rawValue < rhs.rawValue }
}
