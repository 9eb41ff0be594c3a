/// What a lambda sees while it runs: the raw section text, the context stack, a way to render.
///
/// A snapshot of the render at the tag: the context stack, partials, inherited blocks and options as they
/// were when the lambda was called. Rendering through it never changes the render in progress.
public struct LambdaContext: Sendable {
    let partials: any PartialResolver
    let options: RenderOptions
    let stack: [TemplateValue]
    let overrides: [Overrides]
    let depth: Int
    let storage: TemplateStorage
    let delimiters: Delimiters
    let offset: Int
    /// The section tag, with its parsed body and where its raw text is in `storage` (nil for an interpolation).
    let section: SectionNode?

    /// The tag's name as written (`bold`, `format.date`).
    public let name: String

    /// The unrendered text between `{{#name}}` and `{{/name}}`; `nil` for an interpolation (`{{name}}`).
    ///
    /// Made from the template's bytes when asked for, so lambdas that render the parsed section
    /// (``renderSection()``) never pay for it.
    public var sectionText: String? {
        section.map { storage.text($0.bodyStart, $0.bodyEnd) }
    }

    /// Whether the lambda is used as a section.
    public var isSection: Bool { section != nil }

    /// The value on top of the context stack.
    public var current: TemplateValue { stack.last ?? .null }

    /// Looks `name` (dotted, or `.`) up in the context stack as a tag would; `nil` when it is missing.
    public func value(named name: String) -> TemplateValue? {
        let parts = name == "." ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.contains(where: \.isEmpty) { return nil }
        return Renderer.lookup(Name(parts: parts, text: name), in: stack)
    }

    /// Renders `template` against the current context stack, with the delimiters current at the tag (the
    /// default ones for an interpolation). Interpolations inside are escaped as usual.
    public func render(_ template: String) throws(TemplateError) -> String {
        let parsed = try Renderer.parseLambdaResult(template, delimiters: delimiters, name: name, in: storage)
        var renderer = Renderer(partials: partials, options: options, stack: stack, overrides: overrides, depth: depth)
        try renderer.enter(offset, in: storage)
        try renderer.render(parsed.storage.nodes, in: parsed.storage)
        return renderer.output
    }

    /// Renders the section's own body against the current context stack, from the nodes parsed with the
    /// template: the same text `render(sectionText)` gives (up to standalone-line whitespace at the section's
    /// edges, which the template's parse already removed), without parsing anything again. Use it in hot paths.
    /// Returns "" for an interpolation.
    public func renderSection() throws(TemplateError) -> String {
        guard let nodes = section?.nodes else { return "" }
        var renderer = Renderer(partials: partials, options: options, stack: stack, overrides: overrides, depth: depth)
        try renderer.enter(offset, in: storage)
        try renderer.render(nodes, in: storage)
        return renderer.output
    }

    /// `text` escaped with the render's escaper (for lambdas that build output from data).
    public func escape(_ text: String) -> String {
        options.escaper.escape(text)
    }
}

extension Renderer {
    /// Calls a lambda; errors other than `TemplateError` become ``TemplateError/Kind/lambdaFailed(name:detail:)``
    /// at the tag.
    func call(
        _ lambda: TemplateLambda, name: String, section: SectionNode? = nil,
        delimiters: Delimiters, offset: Int, in storage: TemplateStorage
    ) throws(TemplateError) -> LambdaResult {
        let context = LambdaContext(
            partials: partials, options: options, stack: stack, overrides: overrides, depth: depth,
            storage: storage, delimiters: delimiters, offset: offset, section: section, name: name
        )
        do {
            return try lambda(context)
        } catch let error as TemplateError {
            throw error
        } catch {
            throw TemplateError(.lambdaFailed(name: name, detail: String(describing: error)), at: storage.location(offset))
        }
    }

    /// Parses a lambda's returned template; errors point into that text, named after the tag.
    static func parseLambdaResult(
        _ source: String, delimiters: Delimiters, name: String, in storage: TemplateStorage
    ) throws(TemplateError) -> Template {
        try Template(bytes: Array(source.utf8), name: "\(storage.name) (lambda '\(name)')", delimiters: delimiters)
    }
}
