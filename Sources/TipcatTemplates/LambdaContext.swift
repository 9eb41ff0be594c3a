/// What a lambda sees while it runs: the raw section text, the context stack, a way to render.
///
/// Valid only during the lambda call (it refers to the render in progress), so it is deliberately not
/// `Sendable`: keep the strings it returns, not the context.
public struct LambdaContext {
    let renderer: Renderer
    let storage: TemplateStorage
    let delimiters: Delimiters
    let offset: Int

    /// The unrendered text between `{{#name}}` and `{{/name}}`; `nil` for an interpolation (`{{name}}`).
    public let sectionText: String?
    /// The tag's name as written (`bold`, `format.date`).
    public let name: String

    /// Whether the lambda is used as a section.
    public var isSection: Bool { sectionText != nil }

    /// The value on top of the context stack.
    public var current: TemplateValue { renderer.stack.last ?? .null }

    /// Looks `name` (dotted, or `.`) up in the context stack as a tag would; `nil` when it is missing.
    public func value(named name: String) -> TemplateValue? {
        let parts = name == "." ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.contains(where: \.isEmpty) { return nil }
        return renderer.lookup(Name(parts: parts, text: name))
    }

    /// Renders `template` against the current context stack, with the delimiters current at the tag (the
    /// default ones for an interpolation). Interpolations inside are escaped as usual.
    public func render(_ template: String) throws(TemplateError) -> String {
        let parsed = try renderer.parseLambdaResult(template, delimiters: delimiters, name: name, in: storage)
        try renderer.enter(offset, in: storage)
        defer { renderer.depth -= 1 }
        return try renderer.renderToString(parsed.storage)
    }

    /// `text` escaped with the render's escaper (for lambdas that build output from data).
    public func escape(_ text: String) -> String {
        renderer.escaper.escape(text)
    }
}

extension Renderer {
    /// Calls a lambda; errors other than `TemplateError` become ``TemplateError/Kind/lambdaFailed(name:detail:)``
    /// at the tag.
    func call(
        _ lambda: TemplateLambda, name: String, sectionText: String?, delimiters: Delimiters,
        offset: Int, in storage: TemplateStorage
    ) throws(TemplateError) -> LambdaResult {
        let context = LambdaContext(
            renderer: self, storage: storage, delimiters: delimiters, offset: offset, sectionText: sectionText, name: name
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
    func parseLambdaResult(
        _ source: String, delimiters: Delimiters, name: String, in storage: TemplateStorage
    ) throws(TemplateError) -> Template {
        try Template(bytes: Array(source.utf8), name: "\(storage.name) (lambda '\(name)')", delimiters: delimiters)
    }
}
