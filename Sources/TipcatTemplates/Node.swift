/// A parsed tag name: `.` (the top of the context stack) or dotted parts such as `person.name`.
struct Name: Sendable, Hashable {
    /// Empty for the implicit iterator `.`.
    let parts: [String]
    /// As written (trimmed), for messages and lambdas.
    let text: String

    var isImplicit: Bool { parts.isEmpty }
}

/// The tag delimiters, `{{` and `}}` unless a set-delimiter tag changed them.
struct Delimiters: Sendable, Hashable {
    let open: [UInt8]
    let close: [UInt8]

    static let standard = Delimiters(open: Array("{{".utf8), close: Array("}}".utf8))

    var openText: String { String(decoding: open, as: UTF8.self) }
    var closeText: String { String(decoding: close, as: UTF8.self) }
}

/// The name of a partial or parent: fixed, or read from the context (`{{>*name}}`).
enum PartialName: Sendable, Hashable {
    case fixed(String)
    case dynamic(Name)
}

/// One node of a parsed template. Whitespace rules (standalone lines, indentation) are already applied.
///
/// Tag payloads are immutable classes so that walking the tree copies one reference per node.
enum Node: Sendable {
    /// Literal text; `startsLine` when it begins a line of the template (indentation goes before it).
    case text(String, startsLine: Bool)
    /// A template line that begins with a tag: indentation of an indented partial goes here.
    case lineStart
    case variable(VariableNode)
    case section(SectionNode)
    case partial(PartialNode)
    case parent(ParentNode)
    case block(BlockNode)
}

final class VariableNode: Sendable {
    let name: Name
    let escaped: Bool
    /// Byte offset of the tag, for error locations.
    let offset: Int

    init(name: Name, escaped: Bool, offset: Int) {
        self.name = name
        self.escaped = escaped
        self.offset = offset
    }
}

final class SectionNode: Sendable {
    let name: Name
    let inverted: Bool
    let nodes: [Node]
    /// The open tag stood alone on its line (removed); its body starts on a line of its own.
    let standalone: Bool
    /// The open tag begins a line and stays (not standalone): when an iteration ends a line, the next one
    /// is indented again, as the first was.
    let startsLine: Bool
    /// Bytes of the unrendered body, given to section lambdas.
    let bodyStart: Int
    let bodyEnd: Int
    /// Delimiters current at the tag, for rendering a section lambda's result.
    let delimiters: Delimiters
    let offset: Int

    init(
        name: Name, inverted: Bool, nodes: [Node], standalone: Bool, startsLine: Bool,
        bodyStart: Int, bodyEnd: Int, delimiters: Delimiters, offset: Int
    ) {
        self.name = name
        self.inverted = inverted
        self.nodes = nodes
        self.standalone = standalone
        self.startsLine = startsLine
        self.bodyStart = bodyStart
        self.bodyEnd = bodyEnd
        self.delimiters = delimiters
        self.offset = offset
    }
}

final class PartialNode: Sendable {
    let name: PartialName
    /// For a standalone tag, the whitespace before it: prepended to every line of the partial.
    /// `nil` when the tag is inline.
    let indentation: String?
    let offset: Int

    init(name: PartialName, indentation: String?, offset: Int) {
        self.name = name
        self.indentation = indentation
        self.offset = offset
    }
}

final class ParentNode: Sendable {
    let name: PartialName
    /// As for ``PartialNode/indentation``.
    let indentation: String?
    /// The blocks given to the parent, by name. Their content is relative to their own indentation.
    let overrides: [String: [Node]]
    let offset: Int

    init(name: PartialName, indentation: String?, overrides: [String: [Node]], offset: Int) {
        self.name = name
        self.indentation = indentation
        self.overrides = overrides
        self.offset = offset
    }
}

final class BlockNode: Sendable {
    let name: String
    /// The default content, relative to ``indentation``.
    let nodes: [Node]
    /// Added to every line of the content where it is expanded.
    let indentation: String
    /// The open tag stood alone on its line: the content's first line is indented too. Otherwise the
    /// content starts in the middle of a line and only its later lines are.
    let standalone: Bool
    let offset: Int

    init(name: String, nodes: [Node], indentation: String, standalone: Bool, offset: Int) {
        self.name = name
        self.nodes = nodes
        self.indentation = indentation
        self.standalone = standalone
        self.offset = offset
    }
}
