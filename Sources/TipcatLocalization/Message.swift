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
    /// How the syntax tree is had.
    private var form: Form

    /// How a message holds its syntax tree. Most translations are plain text, and a catalog has hundreds of
    /// thousands: a plain message stores nothing beside its text, and a translation, once checked, keeps only how
    /// its text parses (`deferringTree()`), its tree made again when asked for.
    private enum Form: Sendable {
        /// Text without syntax in the mode it was parsed in: one literal, the text itself (none when it is empty).
        case plain
        /// The tree parsing `text` in the mode gives, not kept: parsed again when asked for.
        case deferred(ParseMode)
        /// A tree kept as parsed (`mode`), or as built (nil: by `pluralVariation`, a pseudo-locale, a cache).
        /// Boxed, so that a message is its text and one word (translations are many, trees are few).
        case tree(Tree)
    }

    /// A kept syntax tree.
    private final class Tree: Sendable {
        let parts: [MessagePart]
        let placeholders: [Placeholder]
        let mode: ParseMode?

        init(parts: [MessagePart], placeholders: [Placeholder], mode: ParseMode?) {
            self.parts = parts
            self.placeholders = placeholders
            self.mode = mode
        }
    }

    /// How a text was parsed: as a whole message, or as a plural form (where `#` is the number).
    enum ParseMode: Sendable, Hashable {
        case message, pluralForm
    }

    package init(text: String, parts: [MessagePart], placeholders: [Placeholder]) {
        self.text = text
        self.form = .tree(Tree(parts: parts, placeholders: placeholders, mode: nil))
    }

    /// A parsed message: `text` without syntax (`plain`), or its tree.
    init(text: String, parsedAs mode: ParseMode, plain: Bool, parts: [MessagePart] = [], placeholders: [Placeholder] = []) {
        self.text = text
        self.form = plain ? .plain : .tree(Tree(parts: parts, placeholders: placeholders, mode: mode))
    }

    /// The syntax tree.
    public var parts: [MessagePart] {
        switch form {
        case .plain: text.isEmpty ? [] : [.text(text)]
        case .tree(let tree): tree.parts
        case .deferred(let mode): Message.reparsed(text, mode).parts
        }
    }

    /// Every argument reference in source order, including those nested in plural and select branches.
    public var placeholders: [Placeholder] {
        switch form {
        case .plain: []
        case .tree(let tree): tree.placeholders
        case .deferred(let mode): Message.reparsed(text, mode).placeholders
        }
    }

    /// Whether the message is one literal text, `text` itself, without parsing it again.
    public var isPlainText: Bool {
        if case .plain = form { return true }
        return false
    }

    /// Whether the message holds a syntax tree (rather than nothing, being plain, or its text to parse again).
    package var keepsTree: Bool {
        if case .tree = form { return true }
        return false
    }

    /// How a message that keeps no tree holds its text, for a cache to write it and read it back as it was (not
    /// parsing it to write its tree, nor keeping a tree the message had not).
    package enum TextOnly: UInt8, Sendable, CaseIterable {
        /// One literal, the text itself (`isPlainText`).
        case plain
        /// A whole message whose tree is parsed again when asked for.
        case deferredMessage
        /// A plural form (`#` is the number) whose tree is parsed again when asked for.
        case deferredPluralForm
    }

    /// How this message holds its text when it keeps no tree; nil when it keeps one.
    package var textOnly: TextOnly? {
        switch form {
        case .plain: .plain
        case .deferred(.message): .deferredMessage
        case .deferred(.pluralForm): .deferredPluralForm
        case .tree: nil
        }
    }

    /// A message that keeps no tree, as `textOnly` said of one with this text. Only for texts read back from where
    /// such a message was written: a plain text with syntax would read as one literal.
    package init(text: String, textOnly: TextOnly) {
        self.text = text
        switch textOnly {
        case .plain: form = .plain
        case .deferredMessage: form = .deferred(.message)
        case .deferredPluralForm: form = .deferred(.pluralForm)
        }
    }

    /// This message keeping only its text and how it parses: its tree is parsed again each time it is asked for.
    /// For the many translations that are checked once and then mostly only stored or copied; a message that
    /// was not parsed from its text (built, or from a cache) keeps its tree.
    package consuming func deferringTree() -> Message {
        guard case .tree(let tree) = form, let mode = tree.mode else { return self }
        form = .deferred(mode)
        return self
    }

    /// The tree of a text that parsed before (a deferred message's): parsed again. A text that no longer parses
    /// cannot occur (parsing is a function of the text and the mode); it would read as one literal.
    private static func reparsed(_ text: String, _ mode: ParseMode) -> (parts: [MessagePart], placeholders: [Placeholder]) {
        let message = try? (mode == .pluralForm ? Message.parsePluralForm(text) : Message.parse(text))
        guard let message, case .tree(let tree) = message.form else {
            return (text.isEmpty ? [] : [.text(text)], [])
        }
        return (tree.parts, tree.placeholders)
    }

    /// Equal texts parsed the same way have equal trees: compared without making them. Otherwise the trees are.
    public static func == (lhs: Message, rhs: Message) -> Bool {
        guard lhs.text == rhs.text else { return false }
        switch (lhs.form, rhs.form) {
        case (.plain, .plain): return true
        case (.deferred(let left), .deferred(let right)) where left == right: return true
        case (.deferred(let left), .tree(let right)) where right.mode == left: return true
        case (.tree(let left), .deferred(let right)) where left.mode == right: return true
        case (.tree(let left), .tree(let right)) where left.mode != nil && left.mode == right.mode: return true
        default: return lhs.parts == rhs.parts && lhs.placeholders == rhs.placeholders
        }
    }

    /// By text (equal messages have equal texts).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
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
