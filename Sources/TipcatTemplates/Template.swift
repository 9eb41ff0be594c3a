import TipcatCore

/// The parsed template and its source, shared by copies of a ``Template``.
final class TemplateStorage: Sendable {
    let file: SourceFile
    let nodes: [Node]

    init(file: SourceFile, nodes: [Node]) {
        self.file = file
        self.nodes = nodes
    }

    var name: String { file.path }

    func location(_ offset: Int) -> SourceLocation { file.location(ofByte: offset) }

    func text(_ start: Int, _ end: Int) -> String {
        let bytes = file.bytes
        let lower = max(0, min(start, bytes.count))
        let upper = max(lower, min(end, bytes.count))
        return bytes.withUnsafeBufferPointer { String(decoding: $0[lower..<upper], as: UTF8.self) }
    }
}

/// A Mustache template, parsed once into a tree and rendered as often as needed.
///
/// Supports the whole spec: interpolation, sections, inverted sections, comments, partials, set
/// delimiters, inheritance (`{{<parent}}` / `{{$block}}`), dynamic names (`{{>*name}}`) and native Swift
/// lambdas. Parse errors carry the template name, line and column.
///
/// ```swift
/// let template = try Template("Hello, {{name}}!{{#admin}} (admin){{/admin}}", name: "greeting")
/// let text = try template.render(["name": "Ada", "admin": true])   // "Hello, Ada! (admin)"
/// ```
public struct Template: Sendable, Hashable, CustomStringConvertible {
    let storage: TemplateStorage

    /// How deeply sections, parents and blocks may nest in one template.
    public static let maximumNesting = 100

    /// Parses `source`; `name` identifies the template in error locations (a file path, a partial name).
    public init(_ source: String, name: String = "template") throws(TemplateError) {
        try self.init(bytes: Array(source.utf8), name: name)
    }

    /// Parses UTF-8 bytes (invalid sequences are replaced when text is produced).
    public init(bytes: [UInt8], name: String) throws(TemplateError) {
        try self.init(bytes: bytes, name: name, delimiters: .standard)
    }

    init(bytes: [UInt8], name: String, delimiters: Delimiters) throws(TemplateError) {
        let file = SourceFile(path: name, bytes: bytes)
        let nodes = try Parser.parse(file, delimiters: delimiters, maxNesting: Self.maximumNesting)
        self.storage = TemplateStorage(file: file, nodes: nodes)
    }

    /// The name given at parse time.
    public var name: String { storage.name }

    /// The template's source text.
    public var source: String { storage.text(0, storage.file.bytes.count) }

    public var description: String { "Template(\(name))" }

    public static func == (lhs: Template, rhs: Template) -> Bool {
        lhs.storage === rhs.storage || (lhs.name == rhs.name && lhs.storage.file.bytes == rhs.storage.file.bytes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(storage.file.bytes)
    }

    /// Renders the template against `data` (the bottom of the context stack).
    public func render(
        _ data: TemplateValue = [:],
        partials: any PartialResolver = EmptyPartialResolver(),
        options: RenderOptions = .spec
    ) throws(TemplateError) -> String {
        var renderer = Renderer(partials: partials, options: options, root: data)
        renderer.output.reserveCapacity(storage.file.bytes.count + storage.file.bytes.count / 2 + 16)
        try renderer.render(storage.nodes, in: storage)
        return renderer.output
    }
}
