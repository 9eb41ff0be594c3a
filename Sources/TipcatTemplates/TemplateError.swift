public import TipcatCore

/// Why a template could not be parsed or rendered, and where: template name, line and column.
public struct TemplateError: TipcatError, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong; each case carries what the message needs.
    public enum Kind: Hashable, Sendable {
        /// A tag opened with `opener` (e.g. `{{`) never closes.
        case unclosedTag(opener: String, closer: String)
        /// A tag with no name, such as `{{}}` or `{{#}}`; `tag` is the tag as written.
        case emptyTagName(tag: String)
        /// A name with whitespace inside or an empty dotted part (`a b`, `a..b`).
        case invalidTagName(name: String)
        /// A set-delimiter tag that does not hold exactly two delimiters without `=` and whitespace.
        case invalidDelimiters(tag: String)
        /// A section, inverted section, parent or block that is never closed.
        case unclosedSection(name: String, opened: SourceLocation)
        /// A closing tag (`tag`, as written) that does not close the innermost open section `open`.
        case mismatchedClosingTag(tag: String, open: String, opened: SourceLocation)
        /// A closing tag with no open section.
        case unexpectedClosingTag(tag: String)
        /// Sections nested deeper than the parser allows.
        case nestingTooDeep(limit: Int)
        /// A partial or parent the resolver does not know (only with ``MissingPartialPolicy/fail``).
        case missingPartial(name: String)
        /// A partial name refused because it could leave the partials folder.
        case unsafePartialName(name: String, reason: PartialNameError.Reason)
        /// The partial resolver failed for another reason (unreadable file…).
        case partialFailed(name: String, detail: String)
        /// Rendering nested deeper than ``RenderOptions/maxDepth`` (for example a partial including itself).
        case recursionLimit(limit: Int)
        /// The output grew past ``RenderOptions/maxOutputBytes`` (partials or sections that multiply each other).
        case outputLimit(limit: Int)
        /// More partials, parents, blocks, sections and list items rendered than ``RenderOptions/maxExpansions``
        /// (partials that each include the next several times, even with no output).
        case expansionLimit(limit: Int)
        /// A lambda threw an error that is not a `TemplateError`.
        case lambdaFailed(name: String, detail: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The template (its name as `file`), line and column of the offending tag.
    /// (Optional only to match `TipcatError`; every template error has one.)
    public var location: SourceLocation?

    /// An error of `kind` at `location`.
    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The message without the location.
    public var message: String {
        switch kind {
        case .unclosedTag(let opener, let closer):
            return "unclosed tag: '\(opener)' has no matching '\(closer)'"
        case .emptyTagName(let tag):
            return "empty tag name in '\(tag)'"
        case .invalidTagName(let name):
            return "invalid tag name '\(name)': names cannot contain whitespace or empty dotted parts"
        case .invalidDelimiters(let tag):
            return "invalid delimiter change '\(tag)': expected two delimiters without whitespace or '=', as in '{{=<% %>=}}'"
        case .unclosedSection(let name, let opened):
            return "unclosed section '\(name)' opened at \(opened.line):\(opened.column)"
        case .mismatchedClosingTag(let tag, let open, let opened):
            return "'\(tag)' closes '\(open)' (opened at \(opened.line):\(opened.column))"
        case .unexpectedClosingTag(let tag):
            return "'\(tag)' closes nothing: no section is open"
        case .nestingTooDeep(let limit):
            return "sections nested deeper than \(limit) levels"
        case .missingPartial(let name):
            return "no partial named '\(name)'"
        case .unsafePartialName(let name, let reason):
            return "refused partial name '\(name)': \(reason.explanation)"
        case .partialFailed(let name, let detail):
            return "cannot load partial '\(name)': \(detail)"
        case .outputLimit(let limit):
            return "the rendered output is larger than \(limit) bytes (partials or sections that multiply each other?)"
        case .expansionLimit(let limit):
            return "more than \(limit) partials, sections and list items rendered (partials that each include another several times?)"
        case .recursionLimit(let limit):
            return "rendering nested deeper than \(limit) levels (a partial or lambda that includes itself?)"
        case .lambdaFailed(let name, let detail):
            return "lambda '\(name)' failed: \(detail)"
        }
    }

    /// A stable kebab-case identifier for the kind of error.
    public var ruleID: String? { rule.id }

    /// The rule this kind of error belongs to.
    public var rule: DiagnosticRule {
        switch kind {
        case .unclosedTag: .templateUnclosedTag
        case .emptyTagName: .templateEmptyTagName
        case .invalidTagName: .templateInvalidTagName
        case .invalidDelimiters: .templateInvalidDelimiters
        case .unclosedSection: .templateUnclosedSection
        case .mismatchedClosingTag: .templateMismatchedClosingTag
        case .unexpectedClosingTag: .templateUnexpectedClosingTag
        case .nestingTooDeep: .templateNestingTooDeep
        case .missingPartial: .templateMissingPartial
        case .unsafePartialName: .templateUnsafePartialName
        case .partialFailed: .templatePartialFailed
        case .recursionLimit: .templateRecursionLimit
        case .outputLimit, .expansionLimit: .templateTooLarge
        case .lambdaFailed: .templateLambdaFailed
        }
    }

    /// `name:line:col: message`.
    public var description: String { (location.map { "\($0): " } ?? "") + message }

    /// The error as a diagnostic, for the CLI's printers.
    public var diagnostic: Diagnostic { Diagnostic(message, rule: rule, at: location) }
}
