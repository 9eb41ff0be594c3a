/// Blocks passed to a parent being rendered, with the template they were written in.
struct Overrides {
    let blocks: [String: [Node]]
    let storage: TemplateStorage
}

/// The state of one render: output buffer, context stack, indentation, inherited blocks, depth.
///
/// One value per ``Template/render(_:partials:options:)`` call. The context stack is one array that
/// sections push onto and pop from, so no context is ever copied. A struct with mutating methods, so
/// that exclusive access is checked at compile time rather than on every property access.
struct Renderer {
    let partials: any PartialResolver
    let options: RenderOptions
    let escaper: any TemplateEscaper
    var output = ""
    var stack: [TemplateValue]
    /// Prepended to every line of template text (indented partials and blocks).
    var indent = ""
    /// For the first line of block content or a lambda's result: `true` indents it whatever the template
    /// says, `false` never (the content starts mid-line). `nil`: as the template says.
    var pendingLineStart: Bool?
    var depth: Int
    /// Blocks passed to the parents being rendered, outermost first (the outermost definition wins).
    var overrides: [Overrides]
    var partialCache = PartialCache()
    /// Partials, parents, blocks, sections and list items expanded so far (bounded by `options.maxExpansions`).
    var expansions = 0

    init(partials: any PartialResolver, options: RenderOptions, root: TemplateValue) {
        var stack: [TemplateValue] = []
        stack.reserveCapacity(16)
        stack.append(root)
        self.init(partials: partials, options: options, stack: stack, overrides: [], depth: 0)
    }

    init(partials: any PartialResolver, options: RenderOptions, stack: [TemplateValue], overrides: [Overrides], depth: Int) {
        self.partials = partials
        self.options = options
        self.escaper = options.escaper
        self.stack = stack
        self.overrides = overrides
        self.depth = depth
    }

    mutating func render(_ nodes: [Node], in storage: TemplateStorage) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text, let startsLine):
                if indent.isEmpty {
                    pendingLineStart = nil
                    output += text
                } else {
                    writeIndented(text, startsLine: startsLine)
                }
            case .lineStart:
                if let pending = pendingLineStart {
                    pendingLineStart = nil
                    if pending { output += indent }
                } else {
                    output += indent
                }
            case .variable(let variable):
                beginInline()
                try renderVariable(variable, in: storage)
            case .section(let section):
                try renderSection(section, in: storage)
            case .partial(let partial):
                try renderPartial(partial, in: storage)
            case .parent(let parent):
                try renderParent(parent, in: storage)
            case .block(let block):
                try renderBlock(block, in: storage)
            }
        }
    }

    // MARK: Values

    /// The value for `name` per the spec: the first frame (top down) holding the first part, then the
    /// remaining parts inside that value only. `nil` when any part is missing.
    func lookup(_ name: Name) -> TemplateValue? {
        Self.lookup(name, in: stack)
    }

    static func lookup(_ name: Name, in stack: [TemplateValue]) -> TemplateValue? {
        guard let first = name.parts.first else { return stack.last }
        var frame = stack.count - 1
        var found: TemplateValue?
        while frame >= 0 {
            if let value = stack[frame][first] {
                found = value
                break
            }
            frame -= 1
        }
        guard var value = found else { return nil }
        var part = 1
        while part < name.parts.count {
            guard let next = value[name.parts[part]] else { return nil }
            value = next
            part += 1
        }
        return value
    }

    func isTruthy(_ value: TemplateValue?) -> Bool {
        guard let value else { return false }
        if options.emptyStringIsFalsey, case .string(let text) = value, text.isEmpty { return false }
        return value.isTruthy
    }

    mutating func renderVariable(_ variable: VariableNode, in storage: TemplateStorage) throws(TemplateError) {
        guard let value = lookup(variable.name) else { return }
        switch value {
        case .string(let text):
            append(text, escaped: variable.escaped)
        case .lambda(let lambda):
            let result = try call(lambda, name: variable.name.text, delimiters: .standard,
                                  offset: variable.offset, in: storage)
            switch result {
            case .text(let text):
                append(text, escaped: variable.escaped)
            case .template(let source):
                let template = try Self.parseLambdaResult(source, delimiters: .standard, name: variable.name.text, in: storage)
                try enter(variable.offset, in: storage)
                defer { depth -= 1 }
                append(try renderToString(template.storage.nodes, in: template.storage), escaped: variable.escaped)
            }
        default:
            let text = value.interpolationText
            if !text.isEmpty { append(text, escaped: variable.escaped) }
        }
    }

    mutating func append(_ text: String, escaped: Bool) {
        if escaped {
            escaper.escape(text, into: &output)
        } else {
            output += text
        }
    }

    // MARK: Sections

    mutating func renderSection(_ section: SectionNode, in storage: TemplateStorage) throws(TemplateError) {
        if !section.standalone { beginInline() }
        let value = lookup(section.name)
        if section.inverted {
            guard !isTruthy(value) else { return }
            try enter(section.offset, in: storage)
            defer { depth -= 1 }
            try render(section.nodes, in: storage)
            return
        }
        guard let value, isTruthy(value) else { return }
        try enter(section.offset, in: storage)
        defer { depth -= 1 }
        switch value {
        case .array(let items):
            for (position, item) in items.enumerated() {
                // Source-level indentation would indent only the first iteration of a section that
                // begins a line; indent the later ones too when the previous one ended its line.
                if position > 0, section.startsLine, !indent.isEmpty, output.utf8.last == UInt8(ascii: "\n") {
                    output += indent
                }
                if position > 0 { try checkBudget(section.offset, in: storage) }
                try render(section.nodes, pushing: item, in: storage)
            }
        case .lambda(let lambda):
            if let filter = lambda.sectionFilter {
                try renderSectionFilter(filter, section, in: storage)
            } else {
                try renderSectionLambda(lambda, section, in: storage)
            }
        default:
            try render(section.nodes, pushing: value, in: storage)
        }
    }

    mutating func render(_ nodes: [Node], pushing value: TemplateValue, in storage: TemplateStorage) throws(TemplateError) {
        stack.append(value)
        defer { stack.removeLast() }
        try render(nodes, in: storage)
    }

    /// A section filter's section: rendered as `LambdaContext.renderSection()` renders it — its nodes on the same
    /// stack, one level deeper, as a fresh render would — but here, in this render's state set aside meanwhile
    /// (`renderToString`); then transformed and inserted as a lambda's `.text` result is.
    mutating func renderSectionFilter(_ filter: TemplateLambda.Filter, _ section: SectionNode, in storage: TemplateStorage) throws(TemplateError) {
        let rendered = try renderToString(section.nodes, in: storage, asFreshRenderAt: section.offset)
        do {
            output += try filter(rendered)
        } catch let error as TemplateError {
            throw error
        } catch {
            throw TemplateError(.lambdaFailed(name: section.name.text, detail: String(describing: error)), at: storage.location(section.offset))
        }
    }

    mutating func renderSectionLambda(_ lambda: TemplateLambda, _ section: SectionNode, in storage: TemplateStorage) throws(TemplateError) {
        let result = try call(lambda, name: section.name.text, section: section, delimiters: section.delimiters,
                              offset: section.offset, in: storage)
        switch result {
        case .text(let text):
            output += text
        case .template(let source):
            let template = try Self.parseLambdaResult(source, delimiters: section.delimiters, name: section.name.text, in: storage)
            pendingLineStart = false
            defer { pendingLineStart = nil }
            try render(template.storage.nodes, in: template.storage)
        }
    }

    // MARK: Indentation

    /// Consumes a pending first-line decision before inline output (an interpolation, an inline tag).
    mutating func beginInline() {
        guard let pending = pendingLineStart else { return }
        pendingLineStart = nil
        if pending { output += indent }
    }

    /// Writes `text` with ``indent`` before each line it starts (blank lines stay blank).
    mutating func writeIndented(_ text: String, startsLine: Bool) {
        var indentFirst = startsLine
        if let pending = pendingLineStart {
            indentFirst = pending
            pendingLineStart = nil
        }
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        var indentHere = indentFirst
        while lineStart != utf8.endIndex {
            let lineEnd = utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { utf8.index(after: $0) } ?? utf8.endIndex
            if indentHere, !Self.isBlankLine(utf8, at: lineStart) { output += indent }
            output += Substring(utf8[lineStart..<lineEnd])
            lineStart = lineEnd
            indentHere = true
        }
    }

    private static func isBlankLine(_ utf8: String.UTF8View, at index: String.UTF8View.Index) -> Bool {
        let byte = utf8[index]
        if byte == UInt8(ascii: "\n") { return true }
        guard byte == UInt8(ascii: "\r") else { return false }
        let next = utf8.index(after: index)
        return next != utf8.endIndex && utf8[next] == UInt8(ascii: "\n")
    }

    // MARK: Depth and nested output

    mutating func enter(_ offset: Int, in storage: TemplateStorage) throws(TemplateError) {
        guard depth < options.maxDepth else {
            throw TemplateError(.recursionLimit(limit: options.maxDepth), at: storage.location(offset))
        }
        try checkBudget(offset, in: storage)
        depth += 1
    }

    /// Counts one expansion (a partial, parent, block, section or list item) at the tag at `offset` and fails
    /// there once the render has expanded too much or written too much: work and output stay bounded however
    /// partials and sections multiply each other.
    mutating func checkBudget(_ offset: Int, in storage: TemplateStorage) throws(TemplateError) {
        expansions += 1
        guard expansions <= options.maxExpansions else {
            throw TemplateError(.expansionLimit(limit: options.maxExpansions), at: storage.location(offset))
        }
        guard output.utf8.count <= options.maxOutputBytes else {
            throw TemplateError(.outputLimit(limit: options.maxOutputBytes), at: storage.location(offset))
        }
    }

    /// Renders `nodes` of `storage` into a fresh string (no indentation, no pending line start), leaving the main
    /// output untouched. With `asFreshRenderAt`, as a new renderer of the same stack would render them, entered one
    /// level deeper at that tag: with an expansion count of its own (this render's is set aside meanwhile).
    mutating func renderToString(_ nodes: [Node], in storage: TemplateStorage, asFreshRenderAt offset: Int? = nil) throws(TemplateError) -> String {
        let saved = (output: output, indent: indent, pendingLineStart: pendingLineStart, expansions: expansions)
        (output, indent, pendingLineStart) = ("", "", nil)
        if offset != nil { expansions = 0 }
        defer {
            (indent, pendingLineStart) = (saved.indent, saved.pendingLineStart)
            if offset != nil { expansions = saved.expansions }
        }
        do {
            if let offset {
                try enter(offset, in: storage)
                defer { depth -= 1 }
                try render(nodes, in: storage)
            } else {
                try render(nodes, in: storage)
            }
        } catch {
            output = saved.output
            throw error
        }
        let result = output
        output = saved.output
        return result
    }
}

/// Partials already resolved in one render. A template uses a handful, found fastest in a short list; past
/// that (dynamic names can reach many), a dictionary.
struct PartialCache {
    private static let listLimit = 8
    private var list: [(name: String, template: Template?)] = []
    private var dictionary: [String: Template?] = [:]

    func cached(_ name: String) -> Template?? {
        if let entry = list.first(where: { $0.name == name }) { return .some(entry.template) }
        return dictionary[name]
    }

    mutating func store(_ template: Template?, for name: String) {
        if list.count < Self.listLimit {
            list.append((name, template))
        } else {
            dictionary[name] = .some(template)
        }
    }
}
