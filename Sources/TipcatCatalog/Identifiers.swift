import TipcatCore

/// A typed identifier: a string that knows what it names, so a `TipID` can never be passed where an
/// `EventID` is expected. `Kind` is a phantom type (one of the empty enums below).
public struct Identifier<Kind: IdentifierKind>: RawRepresentable, Hashable, Sendable, Comparable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What an `Identifier` names.
public protocol IdentifierKind: Sendable {}

public enum TipKind: IdentifierKind {}
public enum EventKind: IdentifierKind {}
public enum ParameterKind: IdentifierKind {}
public enum GroupKind: IdentifierKind {}

/// A tip's identifier as written in its file (`NewTrailTip`), before any custom-ID template is applied.
public typealias TipID = Identifier<TipKind>
/// An event's identifier (`entered-backyard-detail-view`), written `#id` in rules.
public typealias EventID = Identifier<EventKind>
/// An app parameter's name (`isLoggedIn`), written `$name` in rules.
public typealias ParameterName = Identifier<ParameterKind>
/// A tip group's identifier (`compass`).
public typealias GroupID = Identifier<GroupKind>

/// The identifier grammars of the catalog format.
public enum IdentifierSyntax {
    /// `[A-Za-z_][A-Za-z0-9_]*` — tips, parameters, groups, record fields.
    public static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return text.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Tip ids: one or more kebab-case parts joined by dots, each starting with a letter or `_` —
    /// `ShowLocationTip`, `onboarding-share`, reverse-DNS `com.example.onboarding.share`.
    public static func isTipIdentifier(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.utf8.first else { return false }
            if first == UInt8(ascii: "_") {
                return isKebabIdentifier("A" + part.dropFirst())
            }
            return isKebabIdentifier(String(part))
        }
    }

    /// Whether `text` up to one of its dots is one of `ids` (`A.b.c`: `A`, then `A.b`): a String Catalog key or a
    /// tip id that starts with a tip's id and a dot (tip ids may contain dots).
    public static func startsWithDottedPrefix(_ text: String, in ids: Set<String>) -> Bool {
        var searchStart = text.startIndex
        while let dot = text[searchStart...].firstIndex(of: ".") {
            if ids.contains(String(text[..<dot])) { return true }
            searchStart = text.index(after: dot)
        }
        return false
    }

    /// `[A-Za-z][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*` — events and action ids (kebab-case allowed).
    public static func isKebabIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, isLetter(first) else { return false }
        var previousWasDash = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") {
                if previousWasDash { return false }
                previousWasDash = true
            } else if isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") {
                previousWasDash = false
            } else {
                return false
            }
        }
        return !previousWasDash
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
