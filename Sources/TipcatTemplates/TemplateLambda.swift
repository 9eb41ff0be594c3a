/// A native Swift lambda: the value behind `{{name}}` or `{{#name}}…{{/name}}` that computes its output.
///
/// As an interpolation (`{{name}}`) the lambda gets a context whose ``LambdaContext/sectionText`` is `nil`;
/// a ``LambdaResult/template(_:)`` result is rendered with the default delimiters, then escaped like any
/// interpolation. As a section (`{{#name}}…{{/name}}`) it gets the raw, unrendered section text; a
/// `.template` result is rendered with the delimiters current at the tag and inserted unescaped. Lambdas are
/// truthy: an inverted section over a lambda never renders. Equality is identity: a lambda equals only
/// itself (and its copies).
public struct TemplateLambda: Sendable, Hashable {
    /// The closure type: gets the rendering context, returns text or a template.
    public typealias Body = @Sendable (LambdaContext) throws -> LambdaResult

    /// What a section filter does with its rendered section.
    public typealias Filter = @Sendable (String) throws -> String

    private final class Box: Sendable {
        let body: Body
        let filter: Filter?
        init(_ body: @escaping Body, filter: Filter?) {
            self.body = body
            self.filter = filter
        }
    }

    private let box: Box

    /// A lambda running `body` each time the tag renders (results are never cached).
    public init(_ body: @escaping Body) {
        self.box = Box(body, filter: nil)
    }

    /// A lambda that only transforms its section as rendered: `{{#name}}…{{/name}}` renders as `transform` of
    /// what ``LambdaContext/renderSection()`` gives, inserted unescaped; `{{name}}` renders as nothing. The same
    /// output as the lambda `{ context in context.isSection ? .text(try transform(context.renderSection())) : .text("") }`,
    /// which the renderer runs without making a context or a second renderer for the section (layout lambdas
    /// wrap every tip's texts).
    public init(sectionFilter transform: @escaping Filter) {
        self.box = Box({ context in context.isSection ? .text(try transform(context.renderSection())) : .text("") }, filter: transform)
    }

    /// The transform of a lambda made with `init(sectionFilter:)`.
    var sectionFilter: Filter? { box.filter }

    func callAsFunction(_ context: LambdaContext) throws -> LambdaResult {
        try box.body(context)
    }

    public static func == (lhs: TemplateLambda, rhs: TemplateLambda) -> Bool { lhs.box === rhs.box }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}

/// What a lambda returns.
public enum LambdaResult: Sendable, Hashable {
    /// Mustache source, rendered against the current context (the spec's behaviour).
    case template(String)
    /// Finished text, inserted as is: never parsed, so data inside it cannot inject tags. Escaped when the
    /// lambda is used as an escaped interpolation (`{{name}}`), inserted raw as a section.
    case text(String)
}

extension TemplateValue {
    /// A lambda value: `.lambda { context in .text(...) }`.
    public static func lambda(_ body: @escaping TemplateLambda.Body) -> TemplateValue {
        .lambda(TemplateLambda(body))
    }

    /// A section filter: `.sectionFilter { rendered in … }` (see `TemplateLambda.init(sectionFilter:)`).
    public static func sectionFilter(_ transform: @escaping TemplateLambda.Filter) -> TemplateValue {
        .lambda(TemplateLambda(sectionFilter: transform))
    }
}
