/// What happens when a partial or parent cannot be found.
public enum MissingPartialPolicy: Sendable, Hashable {
    /// Render nothing in its place, as the Mustache spec requires.
    case renderEmpty
    /// Fail with ``TemplateError/Kind/missingPartial(name:)`` at the tag.
    case fail
}

/// How to render: escaping, missing partials, truthiness and the recursion limit.
public struct RenderOptions: Sendable {
    /// The escaper for `{{name}}` (not for `{{{name}}}` / `{{&name}}`).
    public var escaper: any TemplateEscaper
    /// What a missing partial or parent does (spec: renders nothing).
    public var missingPartials: MissingPartialPolicy
    /// When true, `""` is falsey in sections, as in JavaScript implementations. The spec only names false,
    /// null and the empty list, so the default is false.
    public var emptyStringIsFalsey: Bool
    /// The deepest nesting of sections, partials, parents, blocks and lambda renders before rendering fails
    /// with ``TemplateError/Kind/recursionLimit(limit:)`` instead of exhausting the stack.
    public var maxDepth: Int
    /// The largest output, in UTF-8 bytes, a render may produce before failing with
    /// ``TemplateError/Kind/outputLimit(limit:)`` (partials that each include the next several times would
    /// otherwise grow exponentially).
    public var maxOutputBytes: Int
    /// The most partials, parents, blocks, sections and list items one render may expand before failing with
    /// ``TemplateError/Kind/expansionLimit(limit:)`` (bounds fan-out that produces little or no output).
    public var maxExpansions: Int

    /// Options; the defaults are the spec's behaviour.
    public init(
        escaper: any TemplateEscaper = HTMLEscaper(),
        missingPartials: MissingPartialPolicy = .renderEmpty,
        emptyStringIsFalsey: Bool = false,
        maxDepth: Int = 200,
        maxOutputBytes: Int = 4 << 20,
        maxExpansions: Int = 20_000
    ) {
        self.escaper = escaper
        self.missingPartials = missingPartials
        self.emptyStringIsFalsey = emptyStringIsFalsey
        self.maxDepth = maxDepth
        self.maxOutputBytes = maxOutputBytes
        self.maxExpansions = maxExpansions
    }

    /// The spec's behaviour: HTML escaping, missing partials render as nothing.
    public static var spec: RenderOptions { RenderOptions() }

    /// For products: missing partials are errors; `escaper` chosen by the output style.
    public static func strict(escaper: any TemplateEscaper) -> RenderOptions {
        RenderOptions(escaper: escaper, missingPartials: .fail)
    }
}
