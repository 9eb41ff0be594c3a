/// A parsed message: the text of a tip's title, message or action title (ICU MessageFormat subset).
///
/// Syntax: plain text; `{path}` where `path` is `identifier(.identifier)*`;
/// `{path, plural, [offset:N] selector {message} …}` with selectors `zero one two few many other` or `=N`;
/// `{path, select, key {message} … other {message}}`; `{path, number}`, `{path, number, integer}` and
/// `{path, number, ::.00}` (ICU's precision skeleton: each `0` a fraction digit always shown, each `#` one shown
/// when not zero). `other` is required. Inside a plural branch (also inside a
/// select nested in it) `#` is the plural number; elsewhere it is literal. Apostrophes quote as in ICU: `''` is
/// `'`, and `'` before a special character (`{`, `}`, and `#` where `#` is special) starts quoted text up to the
/// next lone `'`; any other `'` is literal.
///
/// A select case named `nil` is the text for an absent value (an optional parameter without one):
/// `{nickname, select, nil {there} other {{nickname}}}`. It is ordinary ICU syntax (`nil` is just a keyword
/// there); tipcat picks it only when the argument has no value.
public struct Message: Sendable, Hashable {
    /// The select case chosen when the argument has no value: `nil`.
    public static let absentSelector = "nil"

    /// The message text as written.
    public private(set) var text: String
    /// The syntax tree.
    public private(set) var parts: [MessagePart]
    /// Every argument reference in source order, including those nested in plural and select branches.
    public private(set) var placeholders: [Placeholder]

    package init(text: String, parts: [MessagePart], placeholders: [Placeholder]) {
        self.text = text
        self.parts = parts
        self.placeholders = placeholders
    }

    /// The set of argument paths (`"trail.name"`, `"count"`), for comparing a translation with its source.
    public var placeholderPaths: Set<String> { Set(placeholders.map(\.path)) }

    /// The plural arguments, in source order.
    public var pluralArguments: [Placeholder] { placeholders.filter { $0.kind == .plural } }
}

/// A node of a message's syntax tree.
public enum MessagePart: Sendable, Hashable {
    /// Literal text, with quoting already resolved.
    case text(String)
    /// `{path}`: the value at a dotted path.
    case placeholder(path: String)
    /// `{path, plural, offset:N …}`; `offset` is 0 when none is written.
    case plural(path: String, offset: Int, cases: [MessageCase])
    /// `{path, select, …}`.
    case select(path: String, cases: [MessageCase])
    /// `{path, number, …}`: a number with between `minimumFractionDigits` and `maximumFractionDigits` digits
    /// after the point (rounded as printf rounds); `{path, number}` alone prints it as `{path}` does.
    case number(path: String, minimumFractionDigits: Int, maximumFractionDigits: Int?)
    /// `#` in a plural branch: the plural number minus the offset.
    case pound
}

/// One branch of a plural or select argument.
public struct MessageCase: Sendable, Hashable {
    /// The selector as written: `=0`, `one`, `other`, `hike`.
    public var selector: String
    /// The branch's message.
    public var parts: [MessagePart]

    public init(selector: String, parts: [MessagePart]) {
        self.selector = selector
        self.parts = parts
    }
}

/// An argument reference inside a message.
public struct Placeholder: Sendable, Hashable {
    /// How the argument is used.
    public enum Kind: Sendable, Hashable {
        /// `{path}`
        case value
        /// `{path, plural, …}`
        case plural
        /// `{path, select, …}`
        case select
        /// `{path, number, …}`
        case number
    }

    /// The dotted path, e.g. `trail.name`.
    public var path: String
    public var kind: Kind
    /// The UTF-8 byte offset of the argument name in the message text.
    public var offset: Int
    /// The UTF-8 byte length of the argument name.
    public var length: Int
    /// For plural and select: the selectors as written, in order (`["=0", "one", "other"]`); empty for values.
    public var selectors: [String]

    public init(path: String, kind: Kind, offset: Int, length: Int, selectors: [String] = []) {
        self.path = path
        self.kind = kind
        self.offset = offset
        self.length = length
        self.selectors = selectors
    }
}

/// A syntax error in a message, at a UTF-8 byte offset of the message text.
public struct MessageSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// The UTF-8 byte offset in the message text.
    public var offset: Int

    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) (at byte \(offset))" }
}

/// A failure to format a message with the given values: a missing value, a plural over a non-number, …
public struct MessageFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// The argument path the error concerns.
    public var path: String

    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    public var description: String { message }
}
